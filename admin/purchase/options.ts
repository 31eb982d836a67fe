import type { CollectedSku, SkusJson } from '../../domain/collect';
import type { ApiErrorCode } from '../../domain/api-errors';
import type { AdminDb } from '../db/database';
import { collected } from '../catalog/pdd-view';
import { invalidInput, conflict } from '../../domain/api-error';

export interface OptionsRefusal {
  code: Extract<
    ApiErrorCode,
    | 'OPTION_DIMENSION_UNKNOWN'
    | 'OPTION_DIMENSION_MISSING'
    | 'OPTION_VALUE_UNKNOWN'
    | 'OPTION_OUT_OF_STOCK'
    | 'PRICE_UNKNOWN'
  >;
  /** for the operator: says which dimension and value, and what the goods offers instead */
  message: string;
}

/**
 * Whether a purchase's options (dimension name as the PDD panel shows it → option text) name
 * exactly one combination the goods was collected with, in stock and with a price read. Without
 * this the phone finds out 12–24 s into the purchase; with collected data the admin knows at
 * once. The refusal, or the combination they name.
 */
function optionsRefusal(
  data: SkusJson,
  options: Readonly<Record<string, string>>,
): { refusal: OptionsRefusal } | { sku: CollectedSku } {
  const keyOf = new Map(data.dimensions.map((d) => [d.name, d.key]));
  const known = data.dimensions.map((d) => d.name).join('、');
  for (const name of Object.keys(options)) {
    if (!keyOf.has(name)) return refuse('OPTION_DIMENSION_UNKNOWN', `商品没有规格「${name}」，它的规格是：${known}`);
  }
  for (const d of data.dimensions) {
    if (options[d.name] === undefined)
      return refuse('OPTION_DIMENSION_MISSING', `缺少规格「${d.name}」：每个规格（${known}）都要选一个值`);
  }
  for (const d of data.dimensions) {
    const values = [...new Set(data.skus.map((s) => s.options[d.key]).filter((v): v is string => v !== undefined))];
    const wanted = options[d.name]!;
    if (!values.includes(wanted))
      return refuse('OPTION_VALUE_UNKNOWN', `规格「${d.name}」没有「${wanted}」，可选：${values.join('、')}`);
  }
  const text = data.dimensions.map((d) => options[d.name]).join(' / ');
  const sku = data.skus.find((s) => data.dimensions.every((d) => s.options[d.key] === options[d.name]));
  if (!sku) return refuse('OPTION_VALUE_UNKNOWN', `商品没有「${text}」这个规格组合，请按采集结果选择`);
  if (!sku.available)
    return refuse('OPTION_OUT_OF_STOCK', `「${text}」在上次采集时缺货或不可选，请换一个规格或重新采集`);
  if (sku.price_cent === null)
    return refuse('PRICE_UNKNOWN', `「${text}」上次采集没有读到价格，无法判断最高总价：请重新采集后再建任务`);
  return { sku };
}

const refuse = (code: OptionsRefusal['code'], message: string): { refusal: OptionsRefusal } => ({
  refusal: { code, message },
});

async function collectedOf(db: AdminDb, goodsId: string): Promise<SkusJson | null> {
  const row = await db
    .selectFrom('pdd_products')
    .select('skus_json')
    .where('goods_id', '=', goodsId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const data = collected(row?.skus_json ?? null);
  return data && data.dimensions.length > 0 ? data : null;
}

/**
 * The one check every way a purchase task gets its options goes through (the form, an edit, a
 * 顺运宝 order line): refused with the Chinese reason when the goods has collected data that
 * does not offer them, or offers them without a price (the cap could not be judged). A goods
 * never collected successfully is refused too (409 NOT_COLLECTED), here and not only by the
 * 新建采购任务 form: without what a phone read, neither the options nor the cap can be judged,
 * and a script or a stale form must not get past what the form refuses. Returns the collected
 * combination the options name.
 */
export async function checkPurchaseOptions(
  db: AdminDb,
  goodsId: string,
  options: Readonly<Record<string, string>>,
): Promise<CollectedSku> {
  const data = await collectedOf(db, goodsId);
  if (!data)
    throw conflict(
      'NOT_COLLECTED',
      `PDD goods ${goodsId} has no collect result; collect it before drafting a purchase`,
      {
        pdd_goods_id: goodsId,
      },
    );
  const judged = optionsRefusal(data, options);
  if ('refusal' in judged)
    throw invalidInput(judged.refusal.code, judged.refusal.message, { pdd_goods_id: goodsId, options });
  return judged.sku;
}

/** The collected combination a task's options name now, without judging them (the task view's warnings). */
export async function collectedSkuOf(
  db: AdminDb,
  goodsId: string,
  options: Readonly<Record<string, string>>,
): Promise<CollectedSku | null> {
  const data = await collectedOf(db, goodsId);
  if (!data) return null;
  const judged = optionsRefusal(data, options);
  if ('sku' in judged) return judged.sku;
  return judged.refusal.code === 'PRICE_UNKNOWN' || judged.refusal.code === 'OPTION_OUT_OF_STOCK'
    ? (data.skus.find((s) => data.dimensions.every((d) => s.options[d.key] === options[d.name])) ?? null)
    : null;
}
