import { sql, type SqlBool } from 'kysely';
import { LIVE_LINE_TASK_STATES, type MatchState, type OrderLineView } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import type { AuditHook } from '../catalog/common';
import { decodeCursor, encodeCursor } from '../catalog/common';
import { writeTransaction, type AdminDb } from '../db/database';
import { containsText } from '../db/like';
import { badRequest, notFound } from '../http/errors';

export interface OrderListQuery {
  q?: string | undefined;
  /** one line only (the answer to an edit) */
  syb_id?: string | undefined;
  match?: MatchState | undefined;
  has_task?: boolean | undefined;
  /** Taipei days, inclusive, on the shipment's creation */
  date_from?: string | undefined;
  date_to?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** The audit action of an operator's set or clear of a line's SKU; the sync reads it to leave that choice alone. */
export const ORDER_LINE_SKU_SET = 'syb_order.sku.set';

/** The task an order line shows: its live one, else the latest one made from it. */
const lineTask = sql<string | null>`(select t.task_id from tasks t where t.syb_id = o.syb_id
  order by (t.status in (${sql.join(LIVE_LINE_TASK_STATES.map((s) => sql.lit(s)))})) desc, t.created_at desc, t.task_id desc limit 1)`;

const hasLocalSku = sql<SqlBool>`exists (select 1 from shopee_skus k where k.goods_id = o.shopee_goods_id)`;

/** The derived matching state as SQL (domain/syb.ts matchState, the same rule). */
function matchIs(state: MatchState) {
  switch (state) {
    case 'matched':
      return sql<SqlBool>`o.shopee_sku_id is not null`;
    case 'sku_unknown':
      return sql<SqlBool>`(o.shopee_sku_id is null and not ${hasLocalSku})`;
    case 'unmatched':
      return sql<SqlBool>`(o.shopee_sku_id is null and ${hasLocalSku})`;
  }
}

/**
 * Taipei day → the first UTC instant of it. A day that is not on the calendar (2026-13-45,
 * 2026-02-30) is the client's mistake, a 400 — never a RangeError from toISOString.
 */
function dayStartUtc(day: string, plusDays = 0): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== day)
    throw badRequest('VALIDATION_FAILED', `invalid input: ${JSON.stringify(day)} is not a calendar day (YYYY-MM-DD)`);
  return `${new Date(ms - 8 * 3600_000 + plusDays * 86400_000).toISOString().slice(0, 19)}Z`;
}

/** 订单 list: keyset on (created_at desc, syb_id desc), newest shipments first. */
export async function listOrderLines(
  db: AdminDb,
  query: OrderListQuery,
): Promise<{ items: OrderLineView[]; next_cursor: string | null }> {
  let qb = db
    .selectFrom('syb_orders as o')
    .select([
      'o.syb_id',
      'o.order_no',
      'o.title',
      'o.product_spec',
      'o.shopee_goods_id',
      'o.shopee_sku_id',
      'o.quantity',
      'o.price_twd_cent',
      'o.image_url',
      'o.created_at',
    ])
    .select([lineTask.as('task_id'), hasLocalSku.as('has_local_sku')]);
  const q = query.q?.trim();
  if (q) {
    qb = qb.where((eb) =>
      eb.or([
        containsText(eb, 'o.order_no', q),
        containsText(eb, 'o.title', q),
        containsText(eb, 'o.product_spec', q),
        eb('o.shopee_goods_id', '=', q),
        eb('o.syb_id', '=', q),
      ]),
    );
  }
  if (query.syb_id !== undefined) qb = qb.where('o.syb_id', '=', query.syb_id);
  if (query.match) qb = qb.where(matchIs(query.match));
  if (query.has_task !== undefined)
    qb = qb.where(query.has_task ? sql<SqlBool>`${lineTask} is not null` : sql<SqlBool>`${lineTask} is null`);
  if (query.date_from) qb = qb.where('o.created_at', '>=', dayStartUtc(query.date_from));
  if (query.date_to) qb = qb.where('o.created_at', '<', dayStartUtc(query.date_to, 1));
  const key = decodeCursor(query.cursor);
  if (key !== undefined) {
    const [createdAt, sybId] = parseKey(key);
    qb = qb.where((eb) =>
      eb.or([
        eb('o.created_at', '<', createdAt),
        eb.and([eb('o.created_at', '=', createdAt), eb('o.syb_id', '<', sybId)]),
      ]),
    );
  }
  const rows = await qb
    .orderBy('o.created_at', 'desc')
    .orderBy('o.syb_id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const taskIds = page.map((r) => r.task_id).filter((id): id is string => id !== null);
  const statuses = new Map(
    taskIds.length === 0
      ? []
      : (await db.selectFrom('tasks').select(['task_id', 'status']).where('task_id', 'in', taskIds).execute()).map(
          (t) => [t.task_id, t.status],
        ),
  );
  const last = page[page.length - 1];
  return {
    items: page.map(({ has_local_sku, ...r }) => ({
      ...r,
      match_state: r.shopee_sku_id !== null ? 'matched' : Number(has_local_sku) === 1 ? 'unmatched' : 'sku_unknown',
      task_status: r.task_id ? (statuses.get(r.task_id) ?? null) : null,
    })),
    next_cursor:
      rows.length > query.limit && last ? encodeCursor(JSON.stringify([last.created_at, last.syb_id])) : null,
  };
}

function parseKey(key: string): [string, string] {
  const v: unknown = JSON.parse(key);
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  throw badRequest('INVALID_CURSOR', 'cursor is not one this API returned; start again without it');
}

/**
 * Sets or clears a line's Shopee SKU by hand. The SKU must exist locally and belong to the
 * line's goods: a SKU of another product would buy the wrong thing.
 */
export async function setOrderLineSku(
  db: AdminDb,
  sybId: string,
  skuId: string | null,
  audit: AuditHook,
): Promise<OrderLineView> {
  await writeTransaction(db, async (trx) => {
    const line = await trx
      .selectFrom('syb_orders')
      .select(['syb_id', 'shopee_goods_id', 'shopee_sku_id'])
      .where('syb_id', '=', sybId)
      .executeTakeFirst();
    if (!line) throw notFound('SYB_ORDER_NOT_FOUND', `no order line ${sybId}; sync SYB first`);
    if (skuId !== null) {
      const sku = await trx
        .selectFrom('shopee_skus')
        .select(['sku_id', 'goods_id'])
        .where('sku_id', '=', skuId)
        .executeTakeFirst();
      if (!sku) throw badRequest('SHOPEE_SKU_NOT_FOUND', `no local Shopee SKU ${skuId}; add it on the product first`);
      if (sku.goods_id !== line.shopee_goods_id) {
        throw badRequest(
          'SHOPEE_SKU_OTHER_GOODS',
          `Shopee SKU ${skuId} belongs to goods ${sku.goods_id}, not to this line's goods ${line.shopee_goods_id}`,
        );
      }
    }
    await trx
      .updateTable('syb_orders')
      .set({ shopee_sku_id: skuId, updated_at: nowUtc() })
      .where('syb_id', '=', sybId)
      .execute();
    await audit(trx, {
      action: ORDER_LINE_SKU_SET,
      target: { kind: 'syb_order', id: sybId },
      details: { shopee_sku_id: skuId, previous: line.shopee_sku_id },
    });
  });
  const item = (await listOrderLines(db, { syb_id: sybId, limit: 1 })).items[0];
  if (!item) throw notFound('SYB_ORDER_NOT_FOUND', `no order line ${sybId}`);
  return item;
}
