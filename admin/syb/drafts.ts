import type { ExecutionMode } from '../../domain/purchase/status';
import { DRAFT_REFUSALS, LIVE_LINE_TASK_STATES, type DraftRefusal } from '../../domain/syb';
import { cutText } from '../../domain/text';
import type { AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import { HttpError } from '../http/errors';
import { createPurchaseDraft } from '../purchase/drafts';
import { knownPurchase, UnknownPurchase, type KnownPurchase } from '../purchase/known';
import type { OptionsRefusal } from '../purchase/options';
import { readIntSetting } from '../purchase/settings';

export interface DraftResult {
  syb_id: string;
  task_id: string | null;
  error: { code: DraftRefusal; message: string } | null;
}

const OPTION_REFUSALS: ReadonlySet<string> = new Set<OptionsRefusal['code']>([
  'OPTION_DIMENSION_UNKNOWN',
  'OPTION_DIMENSION_MISSING',
  'OPTION_VALUE_UNKNOWN',
  'OPTION_OUT_OF_STOCK',
]);

class Refused extends Error {
  constructor(readonly code: DraftRefusal) {
    super(DRAFT_REFUSALS[code]);
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
      results.push({ syb_id: sybId, task_id: null, error: { code: err.code, message: err.message } });
    }
  }
  return results;
}

async function draftOne(db: AdminDb, actor: AuditActor, sybId: string, mode: ExecutionMode): Promise<string> {
  const line = await db.selectFrom('syb_orders').selectAll().where('syb_id', '=', sybId).executeTakeFirst();
  if (!line) throw new Refused('SYB_ORDER_NOT_FOUND');
  if (await liveTask(db, sybId)) throw new Refused('ALREADY_DRAFTED');
  const skuId = line.shopee_sku_id;
  if (skuId === null) throw new Refused('SKU_UNKNOWN');
  const sku = await db
    .selectFrom('shopee_skus')
    .select('sku_id')
    .where('sku_id', '=', skuId)
    .where('goods_id', '=', line.shopee_goods_id)
    .executeTakeFirst();
  if (!sku) throw new Refused('SKU_UNKNOWN');

  let known: KnownPurchase;
  try {
    known = await knownPurchase(db, skuId, line.quantity);
  } catch (err) {
    if (err instanceof UnknownPurchase) throw new Refused(err.code);
    throw err;
  }
  if (line.quantity > (await readIntSetting(db, 'safety.max_quantity'))) throw new Refused('OVER_MAX_QUANTITY');
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
        orderLine: { sybId, orderNo: line.order_no, shopeeGoodsId: line.shopee_goods_id, shopeeSkuId: skuId },
      },
    );
    return draft.task_id;
  } catch (err) {
    // Another request drafted the same line between our check and the insert.
    if (isLiveLineConflict(err)) throw new Refused('ALREADY_DRAFTED');
    if (err instanceof HttpError && err.code === 'PDD_URL_NO_GOODS_ID') throw new Refused('NO_PDD_LINK');
    // the one options check (admin/purchase/options.ts) found the mapped options not offered
    if (err instanceof HttpError && OPTION_REFUSALS.has(err.code)) throw new Refused('OPTION_UNAVAILABLE');
    throw err;
  }
}

async function liveTask(db: AdminDb, sybId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tasks')
    .select('task_id')
    .where('syb_id', '=', sybId)
    .where('status', 'in', [...LIVE_LINE_TASK_STATES])
    .executeTakeFirst();
  return row !== undefined;
}

function isLiveLineConflict(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string' && e.message.includes('tasks.syb_id');
}
