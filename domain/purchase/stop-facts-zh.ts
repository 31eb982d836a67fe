import { formatCent } from '../money';
import { interstitialZh } from '../purchase-labels';
import type { StopFacts } from './stop-facts';

/**
 * A stop's facts (./stop-facts.ts) as the operator's Chinese sentence. Pure and exhaustive: a
 * new kind of fact does not compile until it has its sentence here.
 */
export function stopFactsZh(f: StopFacts): string {
  switch (f.kind) {
    case 'gate1_over_cap':
      return `单价 ${yuan(f.unit_price_cent)} × ${f.quantity} = ${yuan(f.total_cent)}，超过最高总价 ${yuan(f.max_total_price_cent)}`;
    case 'panel_total_over_cap':
      return `面板总额 ${yuan(f.panel_total_cent)}，超过最高总价 ${yuan(f.max_total_price_cent)}`;
    case 'submit_amount_differs':
      return `提交金额 ${yuan(f.submit_amount_cent)} 与面板总额 ${yuan(f.panel_total_cent)} 不一致`;
    case 'submit_amount_over_cap':
      return `提交金额 ${yuan(f.submit_amount_cent)}，超过最高总价 ${yuan(f.max_total_price_cent)}`;
    case 'unreadable':
      if (f.reading === 'unit_price') return '单价无法读取';
      if (f.reading === 'panel_total') return '面板总额无法读取';
      return f.shown === undefined ? '提交金额无法读取' : `提交金额 ${f.shown} 无法读取`;
    case 'quantity_read_back':
      return `数量读回 ${f.read ?? '无法读取'}，应为 ${f.wanted}`;
    case 'dimension_missing':
      return `规格面板没有「${f.dimensions.join('/')}」这一项（页面上有：${f.shown.join(' / ')}）`;
    case 'option_not_given':
      return `任务没有给出「${f.dimensions.join('/')}」的选项`;
    case 'dimension_not_in_view':
      return `规格「${f.dimension}」不在可见区域`;
    case 'option_missing':
      return `「${f.dimension}」没有选项「${f.option}」（页面上有：${f.shown.join(' / ')}）`;
    case 'option_ambiguous':
      return `「${f.dimension}」里「${f.option}」出现了 ${f.count} 次，无法确定点哪一个`;
    case 'option_sold_out':
      return `「${f.dimension}」的「${f.option}」已售罄或不可选`;
    case 'selection_differs':
      return `面板上选中的是「${f.summary}」，与任务要求的规格不一致`;
    case 'fresh_quantity_not_one':
      return `刚打开的规格面板数量显示 ${shown(f.shown)}，不是 1`;
    case 'quantity_after_plus':
      return `点了 ${f.plus_taps} 次「+」后数量显示 ${shown(f.shown)}，应为 ${f.wanted}`;
    case 'quantity_shown':
      return `数量显示 ${shown(f.shown)}，应为 ${f.wanted}`;
    case 'quantity_row_missing':
      return '数量一栏不在可见区域';
    case 'plus_disabled':
      return `数量加到 ${f.at} 时「+」已不可点，无法设为 ${f.wanted}（库存不足）`;
    case 'price_moved_at_one':
      return `价格已变化：数量为 1 时面板现在显示 ${f.now}，闸门一读到的是 ${shown(f.gate1_read)}`;
    case 'panel_total_moved':
      return `价格已变化：面板总额现在显示 ${f.now}，闸门二读到的是 ${yuan(f.gate2_panel_total_cent)}`;
    case 'submit_control_count':
      return `最终面板上有 ${f.count} 个「${f.label}」按钮，应当只有一个`;
    case 'submit_control_shape':
      return `提交按钮显示 ${f.shown}，不是「${f.label} ¥金额」的样子`;
    case 'submit_control_disabled':
      return '提交按钮不可点';
    case 'interstitial_closed':
      return interstitialZh(f.interstitial);
  }
}

/** '¥12.88', as the UI writes every amount (ui/src/lib/money.ts). */
const yuan = (cent: number): string => `¥${formatCent(cent)}`;

/** Screen text the phone read; nothing read reads as such, not as "null". */
const shown = (text: string | null): string => text ?? '无法读取';
