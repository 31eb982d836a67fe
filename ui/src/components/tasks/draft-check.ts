import type { CreatePurchaseDraft } from '../../../../domain/purchase/schemas';
import { API_ERROR_CODES } from '../../../../domain/api-errors';
import { messageForCode } from '../../errors';
import { parseYuanToCents } from '../../lib/money';
import { pickedSku, type CollectedOptions } from './OptionPickers';
import type { OptionRow } from './OptionRows';
import type { ExecutionMode } from './types';
import type { FieldErrors } from './validation';

/** What the draft form holds, as typed. */
interface DraftInput {
  url: string;
  /** the goods id in `url`, null while it names none */
  goodsId: string | null;
  /** the goods' collected options; null when it was never collected (or is still loading) */
  collected: CollectedOptions | null;
  collectedLoading: boolean;
  picks: Readonly<Record<string, string>>;
  rows: readonly OptionRow[];
  quantity: string;
  /** 最高总价 in yuan, as typed */
  maxTotalPriceYuan: string;
  mode: ExecutionMode;
  priority: number;
}

type Options = { options: Record<string, string>; error?: string };

/** Options picked from the collect: every dimension, and a combination whose price was read. */
function pickedOptions(dims: CollectedOptions, picks: Readonly<Record<string, string>>): Options {
  const options: Record<string, string> = {};
  const missing = dims.dimensions.filter((d) => (picks[d.name] ?? '') === '').map((d) => d.name);
  for (const d of dims.dimensions) if (picks[d.name]) options[d.name] = picks[d.name]!;
  if (missing.length > 0) return { options, error: `请选择${missing.join('、')}` };
  const sku = pickedSku(dims, picks);
  // (stock is the server's to judge, with the option's name: admin/purchase/options.ts)
  if (sku?.available && sku.price_cent === null) return { options, error: API_ERROR_CODES.PRICE_UNKNOWN };
  return { options };
}

/** Options typed as the panel shows them: no empty row, no dimension twice. */
function typedOptions(rows: readonly OptionRow[]): Options {
  const options: Record<string, string> = {};
  for (const r of rows) {
    const name = r.name.trim();
    const value = r.value.trim();
    if (name === '' || value === '') return { options, error: '请为每个规格填写规格名和规格值，或删除空行' };
    if (name in options) return { options, error: `规格名「${name}」重复` };
    options[name] = value;
  }
  return { options };
}

/** Client checks catch the obvious; the server stays the judge of everything else. */
export function checkDraft(input: DraftInput): { draft: CreatePurchaseDraft } | { errors: FieldErrors } {
  const errs: FieldErrors = {};
  if (input.url.trim() === '') errs.pdd_goods_url = '请粘贴拼多多商品链接';
  // A purchase is made from collected goods only: its options and price are known, not typed.
  if (input.goodsId !== null && !input.collectedLoading && !input.collected)
    errs.pdd_goods_url = messageForCode('NOT_COLLECTED');
  const { options, error } = input.collected ? pickedOptions(input.collected, input.picks) : typedOptions(input.rows);
  if (error !== undefined) errs.pdd_options = error;
  const q = input.quantity.trim();
  if (!/^\d+$/.test(q) || Number(q) < 1 || !Number.isSafeInteger(Number(q))) errs.quantity = '数量必须是正整数';
  const cents = parseYuanToCents(input.maxTotalPriceYuan);
  if (!cents.ok) errs.max_total_price_cent = cents.message;
  if (Object.keys(errs).length > 0 || !cents.ok) return { errors: errs };
  return {
    draft: {
      type: 'purchase',
      pdd_goods_url: input.url.trim(),
      pdd_options: options,
      quantity: Number(q),
      max_total_price_cent: cents.cents,
      execution_mode: input.mode,
      priority: input.priority,
    },
  };
}
