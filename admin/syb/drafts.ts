import type { ExecutionMode } from '../../domain/purchase/status';
import { DRAFT_REFUSALS, LIVE_LINE_TASK_STATES, type DraftRefusal } from '../../domain/syb';
import { cutText } from '../../domain/text';
import type { AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import { ApiError } from '../../domain/api-error';
import { createPurchaseDraft } from '../purchase/drafts';
import { knownPurchase, UnknownPurchase, type KnownPurchase } from '../purchase/known';
import type { OptionsRefusal } from '../purchase/options';
import { readIntSetting } from '../purchase/settings';

/** The page of the operator UI that fixes a refusal (an app path such as `/products/123`). */
interface RefusalLink {
  href: string;
  label: string;
}

export interface DraftResult {
  syb_id: string;
  task_id: string | null;
  error: { code: DraftRefusal; message: string; link: RefusalLink | null } | null;
}

/**
 * The draft check's refusals a line reports as OPTION_UNAVAILABLE (re-collect or re-map): the
 * same code `knownPurchase` gives a goods without collected data, so a collect lost between the
 * two reads (NOT_COLLECTED) reads the same as one missing before them.
 */
const OPTION_REFUSALS: ReadonlySet<string> = new Set<OptionsRefusal['code'] | 'NOT_COLLECTED'>([
  'OPTION_DIMENSION_UNKNOWN',
  'OPTION_DIMENSION_MISSING',
  'OPTION_VALUE_UNKNOWN',
  'OPTION_OUT_OF_STOCK',
  'NOT_COLLECTED',
]);

class Refused extends Error {
  constructor(
    readonly code: DraftRefusal,
    readonly link: RefusalLink | null = null,
    message: string = DRAFT_REFUSALS[code],
  ) {
    super(message);
  }
}

const productPage = (goodsId: string) => `/products/${encodeURIComponent(goodsId)}`;

/** Where each refusal is fixed: the product (SKUs, PDD link, mapping board), its PDD goods (collect), or the import. */
async function linkFor(db: AdminDb, code: DraftRefusal, goodsId: string): Promise<RefusalLink | null> {
  const product = await db
    .selectFrom('shopee_products')
    .select(['goods_id', 'pdd_goods_id'])
    .where('goods_id', '=', goodsId)
    .executeTakeFirst();
  if (!product) return { href: '/products', label: '去导入虾皮商品' };
  switch (code) {
    case 'SKU_UNKNOWN':
      return { href: productPage(goodsId), label: '去商品页添加规格' };
    case 'NO_PDD_LINK':
      return { href: productPage(goodsId), label: '去商品页关联拼多多链接' };
    case 'NO_MAPPING':
      return { href: productPage(goodsId), label: '去商品页映射规格' };
    case 'OPTION_UNAVAILABLE':
    case 'PRICE_UNKNOWN':
      return product.pdd_goods_id
        ? { href: `/pdd/${encodeURIComponent(product.pdd_goods_id)}`, label: '去拼多多商品页重新采集' }
        : { href: productPage(goodsId), label: '去商品页映射规格' };
    default:
      return null;
  }
}

/**
 * Purchase drafts from 顺运宝 order lines (docs/api.md, docs/syb-protocol.md): each line on its own — a batch makes
 * what it can and reports every line; a refused line writes nothing. The draft itself is made
 * by the one draft creator (`createPurchaseDraft`) from what the admin knows for the line's
 * Shopee SKU (`knownPurchase`: the mapping under the product's **current** PDD goods).
 */
export async function draftsFromOrderLines(
  db: AdminDb,
  actor: AuditActor,
  sybIds: readonly string[],
  mode: ExecutionMode,
): Promise<DraftResult[]> {
  const results: DraftResult[] = [];
  for (const sybId of [...new Set(sybIds)]) {
    try {
      const taskId = await draftOne(db, actor, sybId, mode);
      results.push({ syb_id: sybId, task_id: taskId, error: null });
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      results.push({ syb_id: sybId, task_id: null, error: { code: err.code, message: err.message, link: err.link } });
    }
  }
  return results;
}

async function draftOne(db: AdminDb, actor: AuditActor, sybId: string, mode: ExecutionMode): Promise<string> {
  const line = await db.selectFrom('syb_orders').selectAll().where('syb_id', '=', sybId).executeTakeFirst();
  if (!line) throw new Refused('SYB_ORDER_NOT_FOUND', { href: '/orders', label: '去订单页同步顺运宝' });
  // A line SYB sent in a shape the adapter cannot use is never bought, whatever else is set on it.
  if (line.data_problem !== null)
    throw new Refused('INVALID_LINE', null, `${DRAFT_REFUSALS.INVALID_LINE}：${line.data_problem}`);
  const live = await liveTask(db, sybId);
  if (live) throw new Refused('ALREADY_DRAFTED', { href: `/tasks/${encodeURIComponent(live)}`, label: '查看采购任务' });
  const refuse = async (code: DraftRefusal) => new Refused(code, await linkFor(db, code, line.shopee_goods_id));
  const skuId = line.shopee_sku_id;
  if (skuId === null) throw new Refused('SKU_UNKNOWN', await linkFor(db, 'SKU_UNKNOWN', line.shopee_goods_id));
  const sku = await db
    .selectFrom('shopee_skus')
    .select('sku_id')
    .where('sku_id', '=', skuId)
    .where('goods_id', '=', line.shopee_goods_id)
    .executeTakeFirst();
  if (!sku) throw new Refused('SKU_UNKNOWN', await linkFor(db, 'SKU_UNKNOWN', line.shopee_goods_id));

  let known: KnownPurchase;
  try {
    known = await knownPurchase(db, skuId, line.quantity);
  } catch (err) {
    if (err instanceof UnknownPurchase) throw await refuse(err.code);
    throw err;
  }
  const maxQuantity = await readIntSetting(db, 'safety.max_quantity');
  if (line.quantity > maxQuantity)
    throw new Refused(
      'OVER_MAX_QUANTITY',
      { href: '/settings', label: '去设置调整数量上限' },
      `数量 ${line.quantity} 超过上限 ${maxQuantity}（设置 → 单次采购数量上限）`,
    );
  try {
    const draft = await createPurchaseDraft(
      db,
      actor,
      {
        type: 'purchase',
        pdd_goods_url: known.pdd_goods_url,
        pdd_options: known.pdd_options,
        quantity: known.quantity,
        max_total_price_cent: known.max_total_price_cent,
        execution_mode: mode,
        ...(line.title ? { title: cutText(line.title, 200) } : {}),
      },
      {
        source: 'syb',
        sourceRef: sybId,
        orderLine: { sybId, sybOrderNo: line.syb_order_no, shopeeGoodsId: line.shopee_goods_id, shopeeSkuId: skuId },
      },
    );
    return draft.task_id;
  } catch (err) {
    // Another request drafted the same line between our check and the insert.
    if (isLiveLineConflict(err)) throw new Refused('ALREADY_DRAFTED');
    if (err instanceof ApiError && err.code === 'PDD_URL_NO_GOODS_ID') throw await refuse('NO_PDD_LINK');
    // the one options check (admin/purchase/options.ts) found the mapped options not offered
    if (err instanceof ApiError && OPTION_REFUSALS.has(err.code)) throw await refuse('OPTION_UNAVAILABLE');
    throw err;
  }
}

async function liveTask(db: AdminDb, sybId: string): Promise<string | null> {
  const row = await db
    .selectFrom('tasks')
    .select('task_id')
    .where('syb_id', '=', sybId)
    .where('status', 'in', [...LIVE_LINE_TASK_STATES])
    .executeTakeFirst();
  return row?.task_id ?? null;
}

function isLiveLineConflict(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string' && e.message.includes('tasks.syb_id');
}
