import { formatYuan } from '../../money';
import { node, type UiNode } from '../node';
import { backButton, SCREEN_H, SCREEN_W } from './common';

export interface OrderView {
  order_no: string;
  title: string;
  shop_name: string;
  options: string[];
  quantity: number;
  total_cent: number;
  placed_at: string;
  status: 'unpaid' | 'payment_started';
}

const ORDER_TABS = ['全部', '待付款', '待分享', '待发货', '待收货', '评价'] as const;
const LIST_TOP = 336;
const CARD_H = 480;
const GAP = 24;

/** Shown in China time, as the app does, whatever the host's zone. */
function chinaTime(iso: string): string {
  const d = new Date(Date.parse(iso) + 8 * 3600_000);
  return d.toISOString().replace('T', ' ').slice(0, 19);
}

export function ordersMaxScroll(count: number): number {
  const content = GAP + Math.max(1, count) * (CARD_H + GAP);
  return Math.max(0, content - (SCREEN_H - LIST_TOP));
}

function card(o: OrderView, top: number): UiNode {
  return node('Linear', [0, top, 1080, top + CARD_H], { id: 'll_order_item' }, [
    node('Text', [36, top + 20, 700, top + 80], { id: 'tv_order_mall', text: o.shop_name }),
    node('Text', [800, top + 20, 1044, top + 80], {
      id: 'tv_order_status',
      text: o.status === 'unpaid' ? '待付款' : '支付中',
    }),
    node('Text', [36, top + 100, 1044, top + 170], { id: 'tv_order_title', text: o.title }),
    node('Text', [36, top + 180, 800, top + 240], { id: 'tv_order_spec', text: o.options.join('；') }),
    node('Text', [860, top + 180, 1044, top + 240], { id: 'tv_order_count', text: `x${o.quantity}` }),
    node('Text', [36, top + 260, 1044, top + 330], {
      id: 'tv_order_amount',
      text: `实付：${formatYuan(o.total_cent)}`,
    }),
    node('Text', [36, top + 340, 1044, top + 400], { id: 'tv_order_sn', text: `订单编号：${o.order_no}` }),
    node('Text', [36, top + 410, 1044, top + 470], {
      id: 'tv_order_time',
      text: `下单时间：${chinaTime(o.placed_at)}`,
    }),
  ]);
}

export function ordersScreen(orders: readonly OrderView[], type: number, scroll: 'top' | 'end'): UiNode {
  const shown = orders
    .filter((o) => type !== 1 || o.status === 'unpaid')
    .slice()
    .reverse();
  const scrollY = scroll === 'end' ? ordersMaxScroll(shown.length) : 0;
  const items =
    shown.length === 0
      ? [node('Text', [240, 800, 840, 880], { id: 'tv_order_empty', text: '暂无相关订单' })]
      : shown.map((o, i) => card(o, LIST_TOP + GAP + i * (CARD_H + GAP) - scrollY));
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    backButton(),
    node('Text', [380, 110, 700, 190], { id: 'tv_title', text: '我的订单' }),
    node(
      'Linear',
      [0, 216, 1080, LIST_TOP],
      { id: 'll_order_tabs' },
      ORDER_TABS.map((t, i) =>
        node('Text', [i * 180, 216, i * 180 + 180, LIST_TOP], {
          id: 'tv_order_tab',
          text: t,
          clickable: true,
          selected: i === type,
          action: { kind: 'order_tab', type: i },
          fill: i === type ? 'chip_selected' : undefined,
        }),
      ),
    ),
    node(
      'Recycler',
      [0, LIST_TOP, 1080, SCREEN_H],
      { id: 'rv_order_list', scrollable: true, scrollKey: 'orders' },
      items,
    ),
  ]);
}
