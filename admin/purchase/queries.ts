import { sql, type SqlBool } from 'kysely';
import { foldForSearch } from '../../domain/catalog-search';
import type { Page } from '../../domain/page';
import { canonicalReason } from '../../domain/purchase/reasons';
import { STATUS_ZH, type PurchaseStatus } from '../../domain/purchase/status';
import type { TaskListItem } from '../../domain/purchase/views';
import type { AdminDb } from '../db/database';
import { invalidInput } from '../../domain/api-error';
import { decodeCursor, encodeCursor } from '../catalog/common';
import { containsText } from '../db/like';
import { deviceName, durationSeconds, parsePaymentCheck, paymentCheckJson, pddAccount } from './task-fields';

export interface ListQuery {
  status?: string;
  q?: string;
  /** 显示已隐藏: include the tasks an operator hid */
  includeHidden?: boolean;
  /** `open`: only tasks marked paid whose payment check is pending, a mismatch or could not tell */
  paymentCheck?: 'open';
  cursor?: string;
  limit: number;
}

/** A trigram index finds a substring only from three characters on (migration 0036). */
const TRIGRAM = 3;
/**
 * Past this many candidates the index costs more than it saves: walking the list index in order
 * stops at the page's last match, while the candidates would all be read and sorted.
 */
const MAX_CANDIDATES = 2_000;

/**
 * A text with the shape of an identifier (an order number, a PDD order number, a goods id, a
 * task id): one word of letters, digits, `-` or `_`, long enough that it is not a fragment.
 */
const IDENTIFIER = /^[A-Za-z0-9_-]{8,64}$/u;

/**
 * The tasks that carry `text` whole as an identifier, by index seeks (migration 0100), or
 * undefined when none does or too many do (then the substring search answers).
 */
async function exactIdentifierRows(db: AdminDb, text: string): Promise<number[] | undefined> {
  if (!IDENTIFIER.test(text)) return undefined;
  const rows = (
    await sql<{ rowid: number }>`select rowid from tasks where task_id = ${text}
      union select rowid from tasks where syb_order_no = ${text}
      union select rowid from tasks where pdd_order_no = ${text}
      union select rowid from tasks where pdd_goods_id = ${text}
      limit ${MAX_CANDIDATES + 1}`.execute(db)
  ).rows;
  return rows.length === 0 || rows.length > MAX_CANDIDATES ? undefined : rows.map((r) => r.rowid);
}

/** An FTS5 phrase that stands for `text` literally: inside double quotes only `"` is special. */
const ftsPhrase = (text: string) => `"${text.replace(/"/gu, '""')}"`;

/**
 * 采购任务: purchase tasks only (collect runs belong to their PDD goods), hidden ones only when
 * asked. Keyset pagination on (updated_at desc, task_id desc): stable while tasks change.
 *
 * `total` is read from `task_counts` (kept by triggers, migration 0036) unless the page is a
 * search or shows hidden tasks, so a page costs its index seek and not a COUNT over every task kept. A search of three
 * or more characters whose text is rare takes its candidates from the trigram index
 * `tasks_search`, then applies the same literal LIKE to each, so it matches exactly what the
 * plain scan matches; a shorter or a common text scans, as before. A whole identifier that some
 * task carries exactly (its order number, PDD order number, goods id or task id) answers with
 * those tasks by index seeks: what the operator pasted names them, and a long digit string's
 * trigrams are shared by most tasks (docs/PERFORMANCE.md).
 */
export async function listTasks(db: AdminDb, query: ListQuery): Promise<Page<TaskListItem>> {
  let filtered = listedTasks(db, query);
  if (query.q) filtered = await searched(db, filtered, query.q);
  const total =
    query.q || query.includeHidden || query.paymentCheck
      ? (await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n
      : await countTasks(db, query.status);
  let q = filtered.select(LIST_COLUMNS).select([deviceName, pddAccount, paymentCheckJson]);
  const key = decodeCursor(query.cursor);
  if (key !== undefined) {
    const [updatedAt, taskId] = parseKey(key);
    // A row value, not `a < x OR (a = x AND b < y)`: SQLite seeks the list index to the cursor
    // for the row value, but answers the OR with two index scans and a sort of everything below.
    q = q.where((eb) => eb(eb.refTuple('updated_at', 'task_id'), '<', eb.tuple(updatedAt, taskId)));
  }
  const rows = await q
    .orderBy('updated_at', 'desc')
    .orderBy('task_id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((t) => ({
      task_id: t.task_id,
      type: 'purchase' as const,
      status: t.status,
      status_zh: STATUS_ZH[t.status as PurchaseStatus] ?? null,
      title: t.title,
      shop_name: t.shop_name,
      execution_mode: t.execution_mode,
      pdd_options: t.pdd_options ? (JSON.parse(t.pdd_options) as Record<string, string>) : null,
      quantity: t.quantity,
      max_total_price_cent: t.max_total_price_cent,
      reason_code: t.reason_code && canonicalReason(t.reason_code),
      device_name: t.device_name,
      device_id: t.device_id,
      pdd_account: t.pdd_account,
      confirmed_total_cent: t.confirmed_total_cent,
      payment_check: parsePaymentCheck(t.payment_check_json),
      version: t.version,
      priority: t.priority,
      syb_order_no: t.syb_order_no,
      pdd_order_no: t.pdd_order_no,
      duration_seconds: durationSeconds(t),
      removed_at: t.removed_at,
      updated_at: t.updated_at,
    })),
    next_cursor:
      rows.length > query.limit && last ? encodeCursor(JSON.stringify([last.updated_at, last.task_id])) : null,
    total: Number(total),
  };
}

/** The list's filters but the search: purchase tasks, shown or all, in one status or any. */
function listedTasks(db: AdminDb, query: ListQuery) {
  let filtered = db.selectFrom('tasks').where('task_type', '=', 'purchase');
  if (!query.includeHidden) filtered = filtered.where('removed_at', 'is', null);
  // the route checks the shape only: a status no task has lists nothing
  if (query.status) filtered = filtered.where('status', '=', query.status as PurchaseStatus);
  if (query.paymentCheck === 'open')
    filtered = filtered.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('payment_checks as pc')
          .select('pc.task_id')
          .whereRef('pc.task_id', '=', 'tasks.task_id')
          .where('pc.status', 'in', ['pending', 'mismatch', 'unavailable']),
      ),
    );
  return filtered;
}

/** The tasks whose searched columns contain `text`, narrowed first by an identifier's index seeks or the trigram index. */
async function searched(
  db: AdminDb,
  filtered: ReturnType<typeof listedTasks>,
  text: string,
): Promise<ReturnType<typeof listedTasks>> {
  const folded = foldForSearch(text);
  const exact = await exactIdentifierRows(db, text);
  if (exact) filtered = filtered.where(sql<SqlBool>`tasks.rowid in (${sql.join(exact)})`);
  else if ([...text].length >= TRIGRAM && [...folded].length >= TRIGRAM) {
    const match = `${ftsPhrase(text)} OR ${ftsPhrase(folded)}`;
    const candidates = (
      await sql<{
        rowid: number;
      }>`select rowid from tasks_search where tasks_search match ${match} limit ${MAX_CANDIDATES + 1}`.execute(db)
    ).rows;
    if (candidates.length === 0) filtered = filtered.where(sql<SqlBool>`0`);
    else if (candidates.length <= MAX_CANDIDATES)
      filtered = filtered.where(sql<SqlBool>`tasks.rowid in (${sql.join(candidates.map((c) => c.rowid))})`);
  }
  return filtered.where((eb) =>
    eb.or([
      containsText(eb, 'task_id', text),
      containsText(eb, 'title', text),
      containsText(eb, 'search_text', folded),
      containsText(eb, 'pdd_goods_id', text),
      containsText(eb, 'syb_order_no', text),
      containsText(eb, 'pdd_order_no', text),
    ]),
  );
}

/**
 * What a list row shows, and no more: a finished task's `result_data` and error text can be
 * kilobytes each, and reading them for fifty rows a page was most of the list query's cost.
 */
const LIST_COLUMNS = [
  'task_id',
  'status',
  'title',
  'shop_name',
  'execution_mode',
  'pdd_options',
  'quantity',
  'max_total_price_cent',
  'reason_code',
  'version',
  'priority',
  'syb_order_no',
  'pdd_order_no',
  'device_id',
  'confirmed_total_cent',
  'waiting_payment_at',
  'started_at',
  'created_at',
  'finished_at',
  'removed_at',
  'updated_at',
] as const;

/** The status tabs' counts: listed (not hidden) purchase tasks per status, from `task_counts`. */
export async function taskCountsByStatus(db: AdminDb): Promise<Record<string, number>> {
  const rows = await db.selectFrom('task_counts').select(['status', 'n']).where('n', '>', 0).execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Tasks in `status`, or all of them: a read of `task_counts`, never a scan of `tasks`. */
async function countTasks(db: AdminDb, status: string | undefined): Promise<number> {
  let q = db.selectFrom('task_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), sql<number>`0`).as('n'));
  if (status) q = q.where('status', '=', status);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The keyset of a task page: (updated_at, task_id), as the cursor carries it. */
function parseKey(key: string): [string, string] {
  let v: unknown;
  try {
    v = JSON.parse(key);
  } catch {
    v = undefined; // a cursor this API never returned
  }
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  throw invalidInput('INVALID_CURSOR', 'cursor is not one this API returned; start again without it');
}
