import { sql, type RawBuilder } from 'kysely';
import { MAX_SALE_TWD_CENT } from '../../domain/margin';
import type { MoneyLine } from '../../domain/money-views';
import { LIVE_LINE_TASK_STATES } from '../../domain/syb';
import { decodeCursor, encodeCursor } from '../catalog/common';
import type { AdminDb } from '../db/database';
import { readOptionalSetting, readSetting } from '../settings/settings';
import { utcBounds, type DayRange } from './range';

type MoneyLineSort = 'shipped' | 'margin' | '-margin';

export interface MoneyLineFilter extends DayRange {
  sort?: MoneyLineSort;
  /** only lines that lose money */
  loss?: boolean;
}

/** Today's settings: what a line that has not reached 待付款 is priced at. */
export async function currentRates(
  db: AdminDb,
): Promise<{ ratePpm: number | null; feeBp: number; lineFeeCnyCent: number }> {
  return {
    ratePpm: await readOptionalSetting(db, 'money.twd_to_cny_rate_ppm'),
    feeBp: await readSetting(db, 'money.platform_fee_bp'),
    lineFeeCnyCent: await readSetting(db, 'money.line_fee_cny_cent'),
  };
}

const LIVE = sql.join(LIVE_LINE_TASK_STATES.map((s) => sql.lit(s)));
const ENDED_WITHOUT_COST = sql`('FAILED', 'CANCELED')`;

/**
 * The lines of a range with their money, as SQL: domain/margin.ts `lineMoney` in integer
 * arithmetic (the same rounding; test/money/lines.test.ts holds them to the same cents), so a
 * list can sort and filter by margin and an export can stream.
 */
function linesSql(
  filter: MoneyLineFilter & { after?: { shippedAt: string; sybId: string } },
  rates: Awaited<ReturnType<typeof currentRates>>,
): RawBuilder<MoneyLine> {
  const scope = inRange(filter);
  // a bound JS number is a REAL to SQLite, and a REAL turns the integer divisions into float ones
  const frozen = (col: string, now: number | null) =>
    sql`CASE WHEN t.waiting_payment_at IS NOT NULL THEN ${sql.ref(`t.${col}`)} ELSE CAST(${now} AS INTEGER) END`;
  const order =
    filter.sort === 'margin'
      ? sql`margin_cny_cent IS NULL, margin_cny_cent ASC, shipped_at DESC, syb_id DESC`
      : filter.sort === '-margin'
        ? sql`margin_cny_cent IS NULL, margin_cny_cent DESC, shipped_at DESC, syb_id DESC`
        : sql`shipped_at DESC, syb_id DESC`;
  return sql<MoneyLine>`
    WITH base AS (
      SELECT o.syb_id, o.syb_order_no, o.title, o.product_spec, o.shopee_goods_id, o.shopee_sku_id,
        o.created_at AS shipped_at, date(o.created_at, '+8 hours') AS shipped_on,
        o.price_twd_cent AS sale_twd_cent, o.quantity,
        t.task_id, t.status AS task_status, t.pdd_order_no, t.paid_at,
        ${frozen('money_rate_ppm', rates.ratePpm)} AS rate_ppm,
        ${frozen('money_fee_bp', rates.feeBp)} AS fee_bp,
        ${frozen('money_line_fee_cny_cent', rates.lineFeeCnyCent)} AS line_fee,
        CASE WHEN t.confirmed_total_cent IS NOT NULL THEN t.confirmed_total_cent
             WHEN t.status NOT IN ${ENDED_WITHOUT_COST} THEN t.max_total_price_cent END AS cost_cny_cent,
        CASE WHEN t.confirmed_total_cent IS NOT NULL THEN 'purchase'
             WHEN t.status NOT IN ${ENDED_WITHOUT_COST} THEN 'estimate' END AS cost_source
      FROM syb_orders o
      LEFT JOIN tasks t ON t.task_id = (
        SELECT x.task_id FROM tasks x WHERE x.syb_id = o.syb_id AND x.task_type = 'purchase'
        ORDER BY x.status IN (${LIVE}) DESC, x.created_at DESC, x.task_id DESC LIMIT 1)
      WHERE ${scope}
    ), sale AS (
      SELECT *, CASE WHEN rate_ppm IS NOT NULL AND sale_twd_cent >= 0 AND sale_twd_cent * quantity <= ${MAX_SALE_TWD_CENT}
        THEN (2 * sale_twd_cent * quantity * rate_ppm + 1000000) / 2000000 END AS sale_cny_cent
      FROM base
    ), fees AS (
      SELECT *, (2 * sale_cny_cent * fee_bp + 10000) / 20000 + line_fee AS fees_cny_cent FROM sale
    ), margin AS (
      SELECT *, sale_cny_cent - fees_cny_cent - cost_cny_cent AS margin_cny_cent FROM fees
    )
    SELECT syb_id, syb_order_no, title, product_spec, shopee_goods_id, shopee_sku_id, shipped_at, shipped_on,
      sale_twd_cent, quantity, rate_ppm, CASE WHEN rate_ppm IS NULL THEN NULL ELSE fee_bp END AS fee_bp,
      sale_cny_cent, fees_cny_cent, cost_cny_cent, cost_source, margin_cny_cent,
      CASE WHEN margin_cny_cent IS NULL OR sale_cny_cent = 0 THEN NULL
           WHEN margin_cny_cent >= 0 THEN (2 * margin_cny_cent * 10000 + sale_cny_cent) / (2 * sale_cny_cent)
           ELSE -((2 * -margin_cny_cent * 10000 + sale_cny_cent) / (2 * sale_cny_cent)) END AS margin_bp,
      task_id, task_status, pdd_order_no, paid_at
    FROM margin
    ${filter.loss ? sql`WHERE margin_cny_cent < 0` : sql``}
    ORDER BY ${order}`;
}

function inRange(filter: DayRange & { after?: { shippedAt: string; sybId: string } }) {
  const { start, end } = utcBounds(filter);
  // past the first chunk the cursor is the upper bound alone, so SQLite seeks to it in
  // idx_syb_orders_list; beside the range's end it walked down from that end to the cursor on every
  // chunk (a 100,000-line export in 200-line chunks: 4.2 s of SQL instead of 1.5 s)
  return filter.after
    ? sql`o.created_at >= ${start} AND (o.created_at, o.syb_id) < (${filter.after.shippedAt}, ${filter.after.sybId})`
    : sql`o.created_at >= ${start} AND o.created_at < ${end}`;
}

/** One page of `GET /api/money/lines`; the cursor is an offset, as the order may be a computed margin. */
export async function listMoneyLines(
  db: AdminDb,
  filter: MoneyLineFilter & { cursor?: string; limit: number },
): Promise<{ items: MoneyLine[]; next_cursor: string | null; rate_set: boolean }> {
  const offset = Number(decodeCursor(filter.cursor) ?? '0');
  const rates = await currentRates(db);
  const { rows } = await sql<MoneyLine>`${linesSql(filter, rates)} LIMIT ${filter.limit + 1} OFFSET ${offset}`.execute(
    db,
  );
  return {
    items: rows.slice(0, filter.limit),
    next_cursor: rows.length > filter.limit ? encodeCursor(String(offset + filter.limit)) : null,
    rate_set: rates.ratePpm !== null,
  };
}

/**
 * Lines read per query of the stream: the one connection is free between two of them. Small, so
 * a chunk's rows die young in V8's heap: at 2,000 they outlived the export's writing of them and
 * were promoted, and a 100,000-line export took the admin from 190 to 343 MiB (at 250: 230).
 */
const STREAM_CHUNK = 250;

/**
 * Every line of the range, newest shipment first, in chunks (the export's 100,000 lines stay out
 * of memory, and no query holds the admin's one database connection for the whole export). The
 * rates are read once, so one export is priced at one moment's settings.
 */
export async function* streamMoneyLines(db: AdminDb, filter: DayRange): AsyncGenerator<MoneyLine> {
  const rates = await currentRates(db);
  let after: { shippedAt: string; sybId: string } | undefined;
  for (;;) {
    const { rows } = await sql<MoneyLine>`${linesSql({ ...filter, after }, rates)} LIMIT ${STREAM_CHUNK}`.execute(db);
    yield* rows;
    const last = rows.at(-1);
    if (rows.length < STREAM_CHUNK || !last) return;
    after = { shippedAt: last.shipped_at, sybId: last.syb_id };
  }
}
