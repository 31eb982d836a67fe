import { skusJsonSchema } from '../../domain/collect';
import type { ExecutionMode } from '../../domain/purchase/status';
import { DRAFT_REFUSALS, LIVE_LINE_TASK_STATES, type DraftRefusal } from '../../domain/syb';
import type { AuditActor } from '../audit/audit';
import { resolveMapping } from '../catalog/mappings';
import type { AdminDb } from '../db/database';
import { HttpError } from '../http/errors';
import { createPurchaseDraft } from '../purchase/drafts';
import type { OptionsRefusal } from '../purchase/options';
import { readIntSetting } from '../purchase/settings';


export interface DraftResult {
  syb_id: string;
  task_id: string | null;
  error: { code: DraftRefusal; message: string } | null;
}

const OPTION_REFUSALS: ReadonlySet<string> = new Set<OptionsRefusal['code']>(['OPTION_DIMENSION_UNKNOWN', 'OPTION_DIMENSION_MISSING', 'OPTION_VALUE_UNKNOWN', 'OPTION_OUT_OF_STOCK']);

class Refused extends Error {
  constructor(readonly code: DraftRefusal) {
    super(DRAFT_REFUSALS[code]);
  }
}

/**
 * Purchase drafts from 顺运宝 order lines (seed 004 §7): each line on its own — a batch makes
 * what it can and reports every line; a refused line writes nothing. The draft itself is made
 * by the one draft creator (`createPurchaseDraft`), with the options of the mapping under the
 * product's **current** PDD goods, so a switched goods never inherits the old goods' options.
 */
export async function draftsFromOrderLines(db: AdminDb, actor: AuditActor, sybIds: readonly string[], mode: ExecutionMode): Promise<DraftResult[]> {
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
  const sku = await db.selectFrom('shopee_skus').select('sku_id').where('sku_id', '=', skuId).where('goods_id', '=', line.shopee_goods_id).executeTakeFirst();
  if (!sku) throw new Refused('SKU_UNKNOWN');

  const goods = await db
    .selectFrom('shopee_products as sp')
    .innerJoin('pdd_products as p', (j) => j.onRef('p.goods_id', '=', 'sp.pdd_goods_id').on('p.deleted_at', 'is', null))
    .select(['p.goods_id as pdd_goods_id', 'p.url', 'p.skus_json'])
    .where('sp.goods_id', '=', line.shopee_goods_id)
    .executeTakeFirst();
  if (!goods) throw new Refused('NO_PDD_LINK');
  const mapping = await resolveMapping(db, skuId);
  if (!mapping || mapping.pdd_goods_id !== goods.pdd_goods_id) throw new Refused('NO_MAPPING');
  if (!mapping.pdd_sku || !mapping.pdd_sku.available) throw new Refused('OPTION_UNAVAILABLE');
  if (mapping.pdd_sku.price_cent === null) throw new Refused('PRICE_UNKNOWN');

  // The mapping stores dimension keys (color, size, …); the PDD panel is driven by dimension names.
  const collected = goods.skus_json ? skusJsonSchema.safeParse(JSON.parse(goods.skus_json)) : undefined;
  if (!collected?.success) throw new Refused('OPTION_UNAVAILABLE');
  const names = new Map(collected.data.dimensions.map((d) => [d.key, d.name]));
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(mapping.pdd_options)) {
    const name = names.get(key);
    if (!name) throw new Refused('OPTION_UNAVAILABLE');
    options[name] = value;
  }

  if (line.quantity > (await readIntSetting(db, 'safety.max_quantity'))) throw new Refused('OVER_MAX_QUANTITY');
  const tolerance = await readIntSetting(db, 'safety.price_tolerance_cent');
  try {
    const draft = await createPurchaseDraft(
      db,
      actor,
      {
        type: 'purchase',
        pdd_goods_url: goods.url,
        pdd_options: options,
        quantity: line.quantity,
        max_total_price_cent: mapping.pdd_sku.price_cent * line.quantity + tolerance,
        execution_mode: mode,
        ...(line.title ? { title: line.title.slice(0, 200) } : {}),
      },
      { source: 'syb', sourceRef: sybId, orderLine: { sybId, orderNo: line.order_no, shopeeGoodsId: line.shopee_goods_id, shopeeSkuId: skuId } },
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
  const row = await db.selectFrom('tasks').select('task_id').where('syb_id', '=', sybId).where('status', 'in', [...LIVE_LINE_TASK_STATES]).executeTakeFirst();
  return row !== undefined;
}

function isLiveLineConflict(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string' && e.message.includes('tasks.syb_id');
}
