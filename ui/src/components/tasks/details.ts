import { interstitialZh } from '../../../../domain/purchase-labels';
import type { TaskView } from '../../../../domain/purchase/views';
import { formatYuan } from '../../lib/money';

/**
 * The one place that turns a stop's detail into a Chinese sentence. Where the task carries the
 * numbers (the gate readings, quantity, cap) the sentence is built from them; otherwise the
 * English detail the phone side wrote is matched against the patterns it is known to write
 * (device-worker/pdd/purchase/prepare.ts, final-panel.ts, domain/purchase/gates.ts). A detail
 * that matches nothing yields null: the page then shows the reason's Chinese text and keeps the
 * original for engineers behind 技术详情.
 */

/** What a sentence may draw on beside the detail itself. */
export interface DetailContext {
  reasonCode: string | null;
  gates?: TaskView['gates'];
  quantity?: number;
  capCent?: number;
}

const yuanOfCents = (text: string): string => formatYuan(Number(text));
/** A reading the phone reported as quoted screen text, e.g. "¥12.88" or "1". */
const unquote = (text: string): string => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'string' ? v : text;
  } catch {
    return text;
  }
};
const listText = (text: string): string => text.split(/\s*\/\s*/).join(' / ');

type Rule = [RegExp, (m: RegExpExecArray) => string];

/** Patterns are tried in order, on the detail with its trailing "(read …)" / "(…)" kept. */
const RULES: readonly Rule[] = [
  // activities/admin/purchase/attempt.ts: a popup the phone closed before the final panel
  [/^interstitial (\w+)$/, (m) => interstitialZh(m[1]!)],
  // domain/purchase/gates.ts, prefixed "Gate n: " by the phone flow
  [
    /^(?:Gate 1: )?(\d+) × (\d+) = (\d+) > cap (\d+)/,
    (m) => `单价 ${yuanOfCents(m[1]!)} × ${m[2]} = ${yuanOfCents(m[3]!)}，超过最高总价 ${yuanOfCents(m[4]!)}`,
  ],
  [
    /^(?:Gate 2: )?panel total (\d+) > cap (\d+)/,
    (m) => `面板总额 ${yuanOfCents(m[1]!)}，超过最高总价 ${yuanOfCents(m[2]!)}`,
  ],
  [
    /^(?:Gate 3: )?submit amount (\d+) ≠ panel total (\d+)/,
    (m) => `提交金额 ${yuanOfCents(m[1]!)} 与面板总额 ${yuanOfCents(m[2]!)} 不一致`,
  ],
  [
    /^(?:Gate 3: )?submit amount (\d+) > cap (\d+)/,
    (m) => `提交金额 ${yuanOfCents(m[1]!)}，超过最高总价 ${yuanOfCents(m[2]!)}`,
  ],
  [/^(?:Gate \d: )?unit price unreadable/, () => '单价无法读取'],
  [/^(?:Gate \d: )?panel total unreadable/, () => '面板总额无法读取'],
  [/^(?:Gate \d: )?submit amount unreadable/, () => '提交金额无法读取'],
  [/^read (\S+), wanted (\d+)$/, (m) => `数量读回 ${m[1] === 'null' ? '无法读取' : m[1]}，应为 ${m[2]}`],
  // device-worker/pdd/purchase/prepare.ts
  [
    /^(.+) has no option ("(?:[^"\\]|\\.)*") \(it shows (.*)\)$/,
    (m) => `「${m[1]}」没有选项「${unquote(m[2]!)}」（页面上有：${listText(m[3]!)}）`,
  ],
  [
    /^the panel has no dimension (.+) \(it shows (.*)\)$/,
    (m) => `规格面板没有「${m[1]}」这一项（页面上有：${listText(m[2]!)}）`,
  ],
  [/^the task gives no option for (.+)$/, (m) => `任务没有给出「${m[1]}」的选项`],
  [/^dimension (.+) is not in view$/, (m) => `规格「${m[1]}」不在可见区域`],
  [
    /^(.+) shows ("(?:[^"\\]|\\.)*") (\d+) times$/,
    (m) => `「${m[1]}」里「${unquote(m[2]!)}」出现了 ${m[3]} 次，无法确定点哪一个`,
  ],
  [
    /^(.+) = ("(?:[^"\\]|\\.)*") is sold out or not selectable$/,
    (m) => `「${m[1]}」的「${unquote(m[2]!)}」已售罄或不可选`,
  ],
  [
    /^"\+" is disabled at (\d+); (\d+) cannot be set$/,
    (m) => `数量加到 ${m[1]} 时「+」已不可点，无法设为 ${m[2]}（库存不足）`,
  ],
  [/^the fresh panel's quantity reads (.+), not 1$/, (m) => `刚打开的规格面板数量显示 ${unquote(m[1]!)}，不是 1`],
  [
    /^after (\d+) "\+" the quantity reads (.+), not (\d+)$/,
    (m) => `点了 ${m[1]} 次「+」后数量显示 ${unquote(m[2]!)}，应为 ${m[3]}`,
  ],
  [/^the (?:final panel's )?quantity reads (.+), wanted (\d+)$/, (m) => `数量显示 ${unquote(m[1]!)}，应为 ${m[2]}`],
  [/^the quantity row is not in view/, () => '数量一栏不在可见区域'],
  [
    /^at quantity 1 the panel now reads (.+); Gate 1 read (.+)$/,
    (m) => `价格已变化：数量为 1 时面板现在显示 ${unquote(m[1]!)}，闸门一读到的是 ${unquote(m[2]!)}`,
  ],
  [
    /^the panel total now reads (.+); Gate 2 read (\d+) cents$/,
    (m) => `价格已变化：面板总额现在显示 ${unquote(m[1]!)}，闸门二读到的是 ${yuanOfCents(m[2]!)}`,
  ],
  [/^the panel reads (.+) \((.*)\), wanted (.+)$/, (m) => `面板上选中的是「${m[2]}」，与任务要求的规格不一致`],
  // device-worker/pdd/purchase/final-panel.ts
  [
    /^found (\d+) "(.+)" controls on the final panel, expected exactly one$/,
    (m) => `最终面板上有 ${m[1]} 个「${m[2]}」按钮，应当只有一个`,
  ],
  [
    /^the submit control reads (.+), not "(.+) ¥<amount>"$/,
    (m) => `提交按钮显示 ${unquote(m[1]!)}，不是「${m[2]} ¥金额」的样子`,
  ],
  [/^the submit amount (.+) is not readable$/, (m) => `提交金额 ${m[1]} 无法读取`],
  [/^the submit control is disabled$/, () => '提交按钮不可点'],
];

/** The detail as a Chinese sentence, or null when it is not one the phone side is known to write. */
export function detailZh(detail: string | null | undefined): string | null {
  if (!detail) return null;
  for (const [re, zh] of RULES) {
    const m = re.exec(detail.trim());
    if (m) return zh(m);
  }
  return /[A-Za-z]{2,}/.test(detail) ? null : detail;
}

/** A task's stop, preferring the structured gate readings to any text. */
export function stopDetailZh(ctx: DetailContext, detail: string | null | undefined): string | null {
  const g = ctx.gates;
  if (g && ctx.quantity !== undefined && ctx.capCent !== undefined) {
    if (ctx.reasonCode === 'GATE1_OVER_CAP' && g.gate1_unit_price_cent !== null) {
      const total = g.gate1_unit_price_cent * ctx.quantity;
      return `单价 ${formatYuan(g.gate1_unit_price_cent)} × ${ctx.quantity} = ${formatYuan(total)}，超过最高总价 ${formatYuan(ctx.capCent)}`;
    }
    if (ctx.reasonCode === 'GATE2_OVER_CAP' && g.gate2_panel_total_cent !== null) {
      return `面板总额 ${formatYuan(g.gate2_panel_total_cent)}，超过最高总价 ${formatYuan(ctx.capCent)}`;
    }
  }
  return detailZh(detail);
}

/** "submission <id>" of a FENCED timeline entry: the id of the one permitted submission. */
export function submissionIdOf(detail: string | null): string | null {
  const m = /^submission (\S+)$/.exec(detail ?? '');
  return m?.[1] ?? null;
}
