import { API_ERROR_CODES } from '../../domain/api-errors';
import type { ExecutionMode } from '../../domain/purchase/status';
import { DRAFT_REFUSALS, LIVE_LINE_TASK_STATES, type DraftRefusal } from '../../domain/syb';
import { cutText } from '../../domain/text';
import { recordAudit, type AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import { ApiError } from '../../domain/api-error';
import { createPurchaseDraft } from '../purchase/drafts';
import { knownPurchase, UnknownPurchase, type KnownPurchase } from '../purchase/known';
import {
  marginGuard,
  marginShortfall,
  type MarginFigures,
  type MarginGuard,
  type MarginShortfall,
} from '../purchase/margin-guard';
import type { OptionsRefusal } from '../purchase/options';
import { readIntSetting } from '../purchase/settings';

/** The page of the operator UI that fixes a refusal (an app path such as `/products/123`). */
interface RefusalLink {
  href: string;
  label: string;
}

/** A line's refusal: the order-line refusals, and the minimum margin (admin/purchase/margin-guard.ts). */
type LineRefusal = DraftRefusal | 'MARGIN_TOO_LOW';

export interface DraftResult {
  syb_id: string;
  task_id: string | null;
  error: {
    code: LineRefusal;
    message: string;
    link: RefusalLink | null;
    /** MARGIN_TOO_LOW: the figures at the draft's cap (null when the sale is out of range) */
    margin?: MarginFigures | null;
  } | null;
}

export interface DraftOptions {
  mode: ExecutionMode;
  /**
   * The operator confirmed drafting lines below the minimum margin. The 订单 page sends it for
   * one line at a time, after a confirm that names the line's figures; each such draft is audited
   * with them (`task.create.low_margin`).
   */
  allowLowMargin?: boolean;
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
    readonly code: LineRefusal,
    readonly link: RefusalLink | null = null,
    message: string = API_ERROR_CODES[code],
    readonly margin?: MarginFigures | null,
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
  options: DraftOptions,
): Promise<DraftResult[]> {
  const results: DraftResult[] = [];
  const guard = await marginGuard(db);
  for (const sybId of [...new Set(sybIds)]) {
    try {
      const taskId = await draftOne(db, actor, sybId, options, guard);
      results.push({ syb_id: sybId, task_id: taskId, error: null });
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      const error: NonNullable<DraftResult['error']> = { code: err.code, message: err.message, link: err.link };
      if (err.margin !== undefined) error.margin = err.margin;
      results.push({ syb_id: sybId, task_id: null, error });
    }
  }
  return results;
}

async function draftOne(
  db: AdminDb,
  actor: AuditActor,
  sybId: string,
  { mode, allowLowMargin = false }: DraftOptions,
  guard: MarginGuard | null,
): Promise<string> {
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
  const short = lowMargin(guard, line, known, allowLowMargin);
  let taskId: string;
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
    taskId = draft.task_id;
  } catch (err) {
    // Another request drafted the same line between our check and the insert.
    if (isLiveLineConflict(err)) throw new Refused('ALREADY_DRAFTED');
    if (err instanceof ApiError && err.code === 'PDD_URL_NO_GOODS_ID') throw await refuse('NO_PDD_LINK');
    // the one options check (admin/purchase/options.ts) found the mapped options not offered
    if (err instanceof ApiError && OPTION_REFUSALS.has(err.code)) throw await refuse('OPTION_UNAVAILABLE');
    throw err;
  }
  // the draft is written by the one creator; who took a line below the minimum, and at what figures, is on record
  if (short)
    await recordAudit(db, actor, {
      action: 'task.create.low_margin',
      target: { kind: 'task', id: taskId },
      details: { syb_id: sybId, ...short.figures },
    });
  return taskId;
}

/**
 * The line's shortfall below the minimum margin at the draft's cap — the most the purchase may
 * cost, so a line that passes cannot earn less than this. Refused unless the operator allowed it.
 */
function lowMargin(
  guard: MarginGuard | null,
  line: { price_twd_cent: number | null; quantity: number },
  known: KnownPurchase,
  allowLowMargin: boolean,
): MarginShortfall | null {
  if (!guard || line.price_twd_cent === null) return null;
  const sale = { saleTwdCent: line.price_twd_cent, quantity: line.quantity };
  const short = marginShortfall(guard, sale, known.max_total_price_cent, '最高总价');
  if (short && !allowLowMargin)
    throw new Refused(
      'MARGIN_TOO_LOW',
      { href: '/settings', label: '去设置查看最低毛利率' },
      `${short.message}；未生成草稿，确认后可单独生成`,
      short.figures,
    );
  return short;
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
