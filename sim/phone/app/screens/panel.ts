import type { Goods } from '../../catalog/schema';
import { formatCent, formatYuan } from '../../money';
import { node, type Rect, type UiNode } from '../node';
import {
  fixedSku,
  isComplete,
  maxQuantity,
  optionEnabled,
  topPriceText,
  type Pricing,
  type Selection,
} from '../pricing';
import { SCREEN_H, SCREEN_W } from './common';

export const PANEL_VIEWPORT: Rect = [0, 980, 1080, 2176];
const VIEW_H = PANEL_VIEWPORT[3] - PANEL_VIEWPORT[1];
const TITLE_H = 84;
const CARD_W = 320;
const CARD_ROW_H = 434;
const CHIP_H = 110;
const CHIP_ROW_H = 134;
const QTY_H = 140;

export interface PanelState {
  sel: Selection;
  qty: number;
  scroll: 'top' | 'end';
}

function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += ch.charCodeAt(0) < 0x80 ? 26 : 44;
  return w;
}

interface Section {
  height: number;
  build(y: number): UiNode[];
}

function cardSection(goods: Goods, st: PanelState, stretch: boolean): Section {
  const dim = goods.dimensions[0];
  if (!dim) throw new Error('goods without dimensions');
  const rows = Math.ceil(dim.values.length / 3);
  const natural = TITLE_H + rows * CARD_ROW_H + 16;
  // Big image cards push the next dimension below the fold, as on the real 8.17.0 panel.
  const height = stretch ? Math.max(natural, VIEW_H) : natural;
  return {
    height,
    build: (y) => {
      const cards = dim.values.map((v, i) => {
        const x = 36 + (i % 3) * (CARD_W + 24);
        const top = y + TITLE_H + Math.floor(i / 3) * CARD_ROW_H;
        const selected = st.sel[0] === v;
        return node('Frame', [x, top, x + CARD_W, top + 410], { id: 'fl_sku_card' }, [
          node('Image', [x, top, x + CARD_W, top + 320], { id: 'iv_sku_option_img', fill: 'image' }),
          node('Text', [x, top + 330, x + CARD_W, top + 410], {
            id: 'tv_sku_option',
            text: v,
            clickable: true,
            selected,
            enabled: optionEnabled(goods, st.sel, 0, v),
            action: { kind: 'select_option', dim: 0, value: v },
            fill: selected ? 'chip_selected' : 'chip',
          }),
        ]);
      });
      const last = cards[cards.length - 1];
      const optBottom = last ? last.bounds[3] : y + TITLE_H;
      return [
        node('Text', [36, y + 12, 1044, y + 72], { id: 'tv_sku_dim_title', text: dim.name }),
        node('Linear', [36, y + TITLE_H, 1044, optBottom], { id: 'll_sku_options' }, cards),
      ];
    },
  };
}

function chipSection(goods: Goods, st: PanelState, d: number): Section {
  const dim = goods.dimensions[d];
  if (!dim) throw new Error(`no dimension ${d}`);
  const placed: { v: string; x: number; row: number; w: number }[] = [];
  let x = 36;
  let row = 0;
  for (const v of dim.values) {
    const w = Math.min(1008, Math.max(160, textWidth(v) + 80));
    if (x + w > 1044) {
      row += 1;
      x = 36;
    }
    placed.push({ v, x, row, w });
    x += w + 24;
  }
  const rows = row + 1;
  return {
    height: TITLE_H + rows * CHIP_ROW_H + 16,
    build: (y) => {
      const chips = placed.map(({ v, x: cx, row: r, w }) => {
        const top = y + TITLE_H + r * CHIP_ROW_H;
        const selected = st.sel[d] === v;
        return node('Text', [cx, top, cx + w, top + CHIP_H], {
          id: 'tv_sku_option',
          text: v,
          clickable: true,
          selected,
          enabled: optionEnabled(goods, st.sel, d, v),
          action: { kind: 'select_option', dim: d, value: v },
          fill: selected ? 'chip_selected' : 'chip',
        });
      });
      return [
        node('Text', [36, y + 12, 1044, y + 72], { id: 'tv_sku_dim_title', text: dim.name }),
        node('Linear', [36, y + TITLE_H, 1044, y + TITLE_H + rows * CHIP_ROW_H - 24], { id: 'll_sku_options' }, chips),
      ];
    },
  };
}

function quantitySection(goods: Goods, st: PanelState): Section {
  const max = maxQuantity(goods, st.sel);
  return {
    height: QTY_H,
    build: (y) => [
      node('Linear', [0, y, 1080, y + QTY_H], { id: 'll_sku_quantity' }, [
        node('Text', [36, y + 30, 400, y + 110], { id: 'tv_sku_quantity_label', text: '购买数量' }),
        node('Text', [720, y + 20, 820, y + 120], {
          id: 'tv_sku_minus',
          text: '-',
          clickable: true,
          enabled: st.qty > 1,
          action: { kind: 'qty', delta: -1 },
          fill: 'chip',
        }),
        node('Text', [820, y + 20, 940, y + 120], { id: 'tv_sku_count', text: String(st.qty) }),
        node('Text', [940, y + 20, 1040, y + 120], {
          id: 'tv_sku_plus',
          text: '+',
          clickable: true,
          enabled: st.qty < max,
          action: { kind: 'qty', delta: 1 },
          fill: 'chip',
        }),
      ]),
    ],
  };
}

function panelSections(goods: Goods, st: PanelState): Section[] {
  const multi = goods.dimensions.length >= 2;
  const sections = [cardSection(goods, st, multi)];
  for (let d = 1; d < goods.dimensions.length; d++) sections.push(chipSection(goods, st, d));
  sections.push(quantitySection(goods, st));
  return sections;
}

function summaryText(goods: Goods, sel: Selection): string {
  if (isComplete(sel)) return `已选：${sel.join(' ')}`;
  return `请选择：${goods.dimensions
    .filter((_, d) => sel[d] === null)
    .map((d) => d.name)
    .join(' ')}`;
}

function submitText(goods: Goods, st: PanelState, pricing: Pricing): string {
  const sku = fixedSku(goods, st.sel);
  return sku ? `提交订单 ¥${formatCent(pricing.total(sku, st.qty))}` : '提交订单';
}

export function panelScreen(goods: Goods, st: PanelState, pricing: Pricing, duplicateSubmit: boolean): UiNode {
  const sections = panelSections(goods, st);
  const total = sections.reduce((a, s) => a + s.height, 0);
  const scrollY = st.scroll === 'end' ? Math.max(0, total - VIEW_H) : 0;
  let y = PANEL_VIEWPORT[1] - scrollY;
  const content: UiNode[] = [];
  const top = y;
  for (const s of sections) {
    content.push(...s.build(y));
    y += s.height;
  }
  const sku = fixedSku(goods, st.sel);
  const header: UiNode[] = [
    node('Image', [36, 680, 316, 960], { id: 'iv_sku_thumb', fill: 'image' }),
    node('Text', [350, 700, 900, 800], { id: 'tv_sku_price', text: topPriceText(goods, st.sel, st.qty, pricing) }),
  ];
  if (sku?.list_price_cent !== undefined) {
    header.push(node('Text', [350, 810, 700, 870], { id: 'tv_sku_list_price', text: formatYuan(sku.list_price_cent) }));
  }
  header.push(
    node('Text', [350, 880, 1044, 940], { id: 'tv_sku_selected', text: summaryText(goods, st.sel) }),
    node('Image', [972, 660, 1060, 748], {
      id: 'iv_sku_close',
      desc: '关闭',
      clickable: true,
      action: { kind: 'back' },
    }),
    node('Scroll', PANEL_VIEWPORT, { id: 'sv_sku_content', scrollable: true, scrollKey: 'panel' }, [
      node('Linear', [0, top, 1080, top + total], { id: 'll_sku_content' }, content),
    ]),
  );
  const label = submitText(goods, st, pricing);
  if (duplicateSubmit) {
    header.push(
      node(
        'Linear',
        [36, 2030, 1044, 2170],
        { id: 'll_sku_confirm_float', clickable: true, action: { kind: 'submit' }, fill: 'red' },
        [node('Text', [200, 2060, 880, 2140], { id: 'tv_sku_confirm', text: label })],
      ),
    );
  }
  header.push(
    node(
      'Linear',
      [36, 2196, 1044, 2356],
      { id: 'll_sku_confirm', clickable: true, action: { kind: 'submit' }, fill: 'red' },
      [node('Text', [200, 2236, 880, 2316], { id: 'tv_sku_confirm', text: label })],
    ),
  );
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    node('View', [0, 0, 1080, 640], { id: 'v_sku_mask', clickable: true, action: { kind: 'back' }, fill: 'mask' }),
    node('Linear', [0, 640, 1080, 2376], { id: 'll_sku_panel' }, header),
  ]);
}
