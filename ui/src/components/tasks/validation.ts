import { ApiError } from '../../api/client';

/** Fields of the create form, named as the API names them so server issue paths map directly. */
type DraftField = 'pdd_goods_url' | 'pdd_options' | 'quantity' | 'max_total_price_cent' | 'execution_mode' | 'priority';
export type FieldErrors = Partial<Record<DraftField, string>>;

// The server's issue messages are English and for developers; operators get these.
const FIELD_ZH: Readonly<Record<DraftField, string>> = {
  pdd_goods_url: '链接中找不到唯一的商品 ID，请粘贴完整的拼多多商品链接',
  pdd_options: '请为每个规格填写规格名和规格值',
  quantity: '数量必须是正整数',
  max_total_price_cent: '最高总价必须大于 0，最多两位小数',
  execution_mode: '请选择执行模式',
  priority: '请选择优先级',
};

const OPTION_REFUSALS: ReadonlySet<string> = new Set([
  'OPTION_DIMENSION_UNKNOWN',
  'OPTION_DIMENSION_MISSING',
  'OPTION_VALUE_UNKNOWN',
  'OPTION_OUT_OF_STOCK',
]);

function isDraftField(s: string): s is DraftField {
  return s in FIELD_ZH;
}

/** Field errors from a rejected create; null when the error is not about a field. */
export function serverFieldErrors(err: unknown): FieldErrors | null {
  if (!(err instanceof ApiError)) return null;
  if (err.code === 'PDD_URL_NO_GOODS_ID') return { pdd_goods_url: FIELD_ZH.pdd_goods_url };
  // the server's options check names the dimension and the values offered, in Chinese
  if (OPTION_REFUSALS.has(err.code)) return { pdd_options: err.message };
  if (err.code !== 'VALIDATION_FAILED') return null;
  const details: unknown = err.details;
  if (typeof details !== 'object' || details === null || !('issues' in details) || !Array.isArray(details.issues))
    return null;
  const out: FieldErrors = {};
  for (const issue of details.issues as unknown[]) {
    if (typeof issue !== 'object' || issue === null || !('path' in issue) || typeof issue.path !== 'string') continue;
    const head = issue.path.split('.')[0] ?? '';
    if (isDraftField(head)) out[head] = FIELD_ZH[head];
  }
  return Object.keys(out).length > 0 ? out : null;
}
