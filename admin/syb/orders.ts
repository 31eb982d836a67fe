import { sql, type SqlBool } from 'kysely';
import { specsAgree } from '../../domain/spec-agreement';
import {
  isCalendarDay,
  LIVE_LINE_TASK_STATES,
  taipeiDayStartUtc,
  type MatchState,
  type OrderLineView,
} from '../../domain/syb';
import { decodeCursor, encodeCursor } from '../catalog/common';
import type { AdminDb } from '../db/database';
import { containsText } from '../db/like';
import { invalidInput } from '../../domain/api-error';
import { knownPurchase, UnknownPurchase } from '../purchase/known';
import { draftPriceFlags } from '../purchase/price-watch';

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

/** The task an order line shows: its live one, else the latest one made from it. */
const lineTask = sql<string | null>`(select t.task_id from tasks t where t.syb_id = o.syb_id
  order by (t.status in (${sql.join(LIVE_LINE_TASK_STATES.map((s) => sql.lit(s)))})) desc, t.created_at desc, t.task_id desc limit 1)`;

const hasLocalSku = sql<SqlBool>`exists (select 1 from shopee_skus k where k.goods_id = o.shopee_goods_id)`;
const productKnown = sql<SqlBool>`exists (select 1 from shopee_products p where p.goods_id = o.shopee_goods_id)`;

/**
 * The part of the derived matching state SQL can decide. `ready` and `matched` differ by whether a
 * purchase can be made from the SKU (`knownPurchase`), which only the code knows: both select
 * lines with a SKU here, and the list keeps the ones in the asked state.
 */
function matchIs(state: MatchState) {
  switch (state) {
    case 'invalid':
      return sql<SqlBool>`o.data_problem is not null`;
    case 'ready':
    case 'matched':
      return sql<SqlBool>`(o.data_problem is null and o.shopee_sku_id is not null)`;
    case 'sku_unknown':
      return sql<SqlBool>`(o.data_problem is null and o.shopee_sku_id is null and not ${hasLocalSku})`;
    case 'unmatched':
      return sql<SqlBool>`(o.data_problem is null and o.shopee_sku_id is null and ${hasLocalSku})`;
  }
}

/** Whether a draft could be made from the SKU now: mapped under the current PDD goods to an available, priced combination. */
async function purchasable(db: AdminDb, skuId: string, quantity: number): Promise<boolean> {
  try {
    await knownPurchase(db, skuId, Math.max(quantity, 1));
    return true;
  } catch (err) {
    if (err instanceof UnknownPurchase) return false;
    throw err;
  }
}

/**
 * Taipei day → the first UTC instant of it. A day that is not on the calendar (2026-13-45,
 * 2026-02-30) is the client's mistake, a 400 — never a RangeError from toISOString.
 */
function dayStartUtc(day: string, plusDays = 0): string {
  if (!isCalendarDay(day))
    throw invalidInput('VALIDATION_FAILED', `invalid input: ${JSON.stringify(day)} is not a calendar day (YYYY-MM-DD)`);
  return taipeiDayStartUtc(day, plusDays);
}

/** Rows read per round while a `ready`/`matched` filter drops lines; a page reads at most this × MAX_ROUNDS. */
const ROUND_ROWS = 200;
const MAX_ROUNDS = 10;

/** 订单 list: keyset on (created_at desc, syb_id desc), newest shipments first. */
export async function listOrderLines(
  db: AdminDb,
  query: OrderListQuery,
): Promise<{ items: OrderLineView[]; next_cursor: string | null }> {
  const qb = filteredLines(db, query);
  const key = decodeCursor(query.cursor);
  // Only `ready` and `matched` are decided after the query; any other list is one query.
  const keepOnly = query.match === 'ready' || query.match === 'matched' ? query.match : undefined;
  const read = await readLines(db, qb, key === undefined ? undefined : parseKey(key), query.limit + 1, keepOnly);
  const { kept, scannedTo } = read;
  const page = kept.slice(0, query.limit);
  await fillTaskStatuses(db, page);
  const last = page[page.length - 1];
  // More may follow when a line was left over, or when a filtered read stopped before the end.
  const more = kept.length > query.limit || (keepOnly !== undefined && !read.exhausted && kept.length <= query.limit);
  const cursorKey = kept.length > query.limit && last ? [last.created_at, last.syb_id] : more ? scannedTo : undefined;
  return { items: page, next_cursor: cursorKey ? encodeCursor(JSON.stringify(cursorKey)) : null };
}

/** The lines the query's search text, line, match, task and day filters let through, with what a list row shows. */
function filteredLines(db: AdminDb, query: OrderListQuery) {
  let qb = db
    .selectFrom('syb_orders as o')
    .leftJoin('shopee_skus as k', (j) =>
      j.onRef('k.sku_id', '=', 'o.shopee_sku_id').onRef('k.goods_id', '=', 'o.shopee_goods_id'),
    )
    .select([
      'o.syb_id',
      'o.syb_order_no',
      'o.title',
      'o.product_spec',
      'o.shopee_goods_id',
      'o.shopee_sku_id',
      'o.quantity',
      'o.price_twd_cent',
      'o.image_url',
      'o.created_at',
      'o.data_problem',
      'k.spec_raw as shopee_sku_spec',
      'k.sku_id as local_sku_id',
    ])
    .select([lineTask.as('task_id'), hasLocalSku.as('has_local_sku'), productKnown.as('product_known')]);
  const q = query.q?.trim();
  if (q) {
    qb = qb.where((eb) =>
      eb.or([
        containsText(eb, 'o.syb_order_no', q),
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
  return qb;
}

type LineQuery = ReturnType<typeof filteredLines>;
type LineRow = Awaited<ReturnType<LineQuery['execute']>>[number];

/**
 * Reads rows after the cursor until `wanted` lines are kept: one read, or with a `ready`/`matched`
 * filter rounds of ROUND_ROWS (at most MAX_ROUNDS), keeping only the lines in that state.
 * `scannedTo` is the last row looked at, kept or not; `exhausted`, whether the end was reached.
 */
async function readLines(
  db: AdminDb,
  qb: LineQuery,
  cursor: [string, string] | undefined,
  wanted: number,
  keepOnly: 'ready' | 'matched' | undefined,
): Promise<{ kept: OrderLineView[]; scannedTo: [string, string] | undefined; exhausted: boolean }> {
  let after = cursor;
  const kept: OrderLineView[] = [];
  let scannedTo: [string, string] | undefined;
  for (let round = 0; round < (keepOnly ? MAX_ROUNDS : 1) && kept.length < wanted; round++) {
    const from = after;
    const batch = keepOnly ? ROUND_ROWS : wanted;
    const rows = await (
      from === undefined
        ? qb
        : qb.where((eb) =>
            eb.or([
              eb('o.created_at', '<', from[0]),
              eb.and([eb('o.created_at', '=', from[0]), eb('o.syb_id', '<', from[1])]),
            ]),
          )
    )
      .orderBy('o.created_at', 'desc')
      .orderBy('o.syb_id', 'desc')
      .limit(batch)
      .execute();
    for (const row of rows) {
      if (kept.length >= wanted) break;
      scannedTo = [row.created_at, row.syb_id];
      const line = await lineView(db, row);
      if (!keepOnly || line.match_state === keepOnly) kept.push(line);
    }
    if (rows.length < batch) return { kept, scannedTo, exhausted: true };
    after = scannedTo;
  }
  return { kept, scannedTo, exhausted: false };
}

async function lineView(
  db: AdminDb,
  { has_local_sku, local_sku_id, product_known, ...r }: LineRow,
): Promise<OrderLineView> {
  const state: MatchState =
    r.data_problem !== null
      ? 'invalid'
      : r.shopee_sku_id !== null
        ? local_sku_id !== null && (await purchasable(db, r.shopee_sku_id, r.quantity))
          ? 'ready'
          : 'matched'
        : Number(has_local_sku) === 1
          ? 'unmatched'
          : 'sku_unknown';
  return {
    ...r,
    match_state: state,
    shopee_product_known: Number(product_known) === 1,
    spec_mismatch: r.shopee_sku_id !== null && local_sku_id !== null && !specsAgree(r.product_spec, r.shopee_sku_spec),
    task_status: null,
    task_price_flag: null,
  };
}

/** Each line's task status, and a draft's price flag, in one read for the page. */
async function fillTaskStatuses(db: AdminDb, page: OrderLineView[]): Promise<void> {
  const taskIds = page.map((r) => r.task_id).filter((id): id is string => id !== null);
  const tasks =
    taskIds.length === 0
      ? []
      : await db
          .selectFrom('tasks')
          .select(['task_id', 'status', 'pdd_goods_id', 'pdd_options', 'quantity', 'max_total_price_cent'])
          .where('task_id', 'in', taskIds)
          .execute();
  const statuses = new Map(tasks.map((t) => [t.task_id, t.status]));
  const lineOf = new Map(page.map((l) => [l.task_id, l]));
  const flags = await draftPriceFlags(
    db,
    tasks
      .filter((t) => t.status === 'DRAFT')
      .map((t) => ({
        task_id: t.task_id,
        pdd_goods_id: t.pdd_goods_id,
        pdd_options: t.pdd_options,
        quantity: t.quantity ?? 0,
        max_total_price_cent: t.max_total_price_cent ?? 0,
        line_price_twd_cent: lineOf.get(t.task_id)?.price_twd_cent ?? null,
        line_quantity: lineOf.get(t.task_id)?.quantity ?? 0,
      })),
  );
  for (const item of page) {
    item.task_status = item.task_id ? (statuses.get(item.task_id) ?? null) : null;
    const flag = item.task_id ? flags.get(item.task_id) : undefined;
    item.task_price_flag = flag ? { code: flag.code, message: flag.message } : null;
  }
}

function parseKey(key: string): [string, string] {
  const v: unknown = JSON.parse(key);
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  throw invalidInput('INVALID_CURSOR', 'cursor is not one this API returned; start again without it');
}
