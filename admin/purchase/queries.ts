import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import { foldForSearch } from '../../domain/catalog-search';
import type { Page } from '../../domain/page';
import { canonicalReason, reasonInfo } from '../../domain/purchase/reasons';
import { phaseOf, PURCHASE_STATUSES } from '../../domain/purchase/state-machine';
import { NEXT_STEP_ZH, STATUS_ZH, type PurchaseStatus } from '../../domain/purchase/status';
import type { TaskListItem, TaskView, TimelineEntry } from '../../domain/purchase/views';

export type { TaskListItem, TaskView };
import { parseUtcTimestamp } from '../../domain/time';
import type { AdminDb } from '../db/database';
import type { AdminDatabase } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { decodeCursor, encodeCursor } from '../catalog/common';
import { containsText } from '../db/like';
import { draftWarnings } from './warnings';

export async function getPurchaseTask(db: AdminDb, taskId: string): Promise<TaskView> {
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .select(deviceName)
    .where('task_id', '=', taskId)
    .where('task_type', '=', 'purchase')
    .executeTakeFirst();
  if (!task) throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  // The latest authorization of the task, even after a reset cleared tasks.authorization_id.
  const auth = await db
    .selectFrom('order_authorizations')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('task_version', 'desc')
    .limit(1)
    .executeTakeFirst();
  const attempt = auth
    ? await db.selectFrom('purchase_attempts').selectAll().where('authorization_id', '=', auth.id).executeTakeFirst()
    : undefined;
  const submission = auth
    ? await db.selectFrom('order_submissions').selectAll().where('authorization_id', '=', auth.id).executeTakeFirst()
    : undefined;
  const evidence = attempt
    ? await db
        .selectFrom('evidence_assets')
        .select(['id', 'kind', 'captured_at'])
        .where('task_id', '=', taskId)
        .where('attempt_id', '=', attempt.id)
        .orderBy('captured_at')
        .execute()
    : [];
  const status = task.status as PurchaseStatus;
  const current = auth !== undefined && task.authorization_id === auth.id;
  // a stop after the tap on 提交订单 reads as one: the order may exist
  const tapped = current && submission !== undefined && submission.abandoned_at === null;
  const reason = task.reason_code ? reasonInfo(task.reason_code, tapped) : null;
  const timeline = attempt
    ? (JSON.parse(attempt.timeline_json) as TimelineEntry[]).map((e) =>
        e.reason ? { ...e, reason: canonicalReason(e.reason) } : e,
      )
    : [];
  // A task canceled before a phone took it (or after a reset) has no attempt that records it.
  if (status === 'CANCELED' && timeline.at(-1)?.status !== 'CANCELED') {
    timeline.push({
      at: task.finished_at ?? task.updated_at,
      status: 'CANCELED',
      reason: task.reason_code,
      detail: null,
      actor: await canceledBy(db, taskId),
    });
  }
  const pddOptions = JSON.parse(task.pdd_options ?? '{}') as Record<string, string>;
  return {
    task_id: task.task_id,
    type: 'purchase',
    status,
    status_zh: STATUS_ZH[status],
    next_step_zh: NEXT_STEP_ZH[status],
    version: task.version,
    execution_mode: task.execution_mode ?? 'dry_run',
    title: task.title,
    shop_name: task.shop_name,
    pdd_goods_id: task.pdd_goods_id,
    pdd_goods_url: task.pdd_goods_url,
    pdd_options: pddOptions,
    quantity: task.quantity ?? 0,
    max_total_price_cent: task.max_total_price_cent ?? 0,
    priority: task.priority,
    reason_code: task.reason_code && canonicalReason(task.reason_code),
    reason_zh: reason?.zh ?? null,
    reason_next_zh: reason?.next ?? null,
    device_id: task.device_id,
    device_name: task.device_name,
    syb_id: task.syb_id,
    syb_order_no: task.syb_order_no,
    order_no: task.syb_order_no,
    pdd_order_no: task.pdd_order_no,
    shopee_goods_id: task.shopee_goods_id,
    shopee_sku_id: task.shopee_sku_id,
    workflow_id: auth?.workflow_id ?? null,
    authorization: auth ? { id: auth.id, status: auth.status, expires_at: auth.expires_at } : null,
    // Readings of an authorization the task no longer holds (reset to DRAFT, then edited or
    // canceled) are history, not the task's current gates; the attempt keeps them.
    gates: {
      gate1_unit_price_cent: current ? (attempt?.gate1_unit_price_cent ?? null) : null,
      gate2_panel_total_cent: current ? (attempt?.gate2_panel_total_cent ?? null) : null,
      gate3_submit_amount_cent: current ? (attempt?.gate3_submit_amount_cent ?? null) : null,
      quantity_read: current ? (attempt?.quantity_read ?? null) : null,
    },
    timeline,
    attempt: attempt
      ? {
          id: attempt.id,
          step: attempt.step,
          status: attempt.status,
          artifact_ref: attempt.artifact_ref,
          failure_detail: attempt.failure_detail,
          timeline: JSON.parse(attempt.timeline_json) as unknown[],
          purchase: attempt.purchase_json ? (JSON.parse(attempt.purchase_json) as unknown) : null,
        }
      : null,
    submission: submission
      ? {
          id: submission.id,
          status: submission.status,
          order_submitted_at: submission.order_submitted_at,
          pdd_order_no: submission.pdd_order_no,
          abandoned_at: submission.abandoned_at,
        }
      : null,
    evidence,
    warnings:
      status === 'DRAFT'
        ? await draftWarnings(db, {
            pdd_goods_id: task.pdd_goods_id,
            pdd_options: pddOptions,
            quantity: task.quantity ?? 0,
            max_total_price_cent: task.max_total_price_cent ?? 0,
            syb_id: task.syb_id,
          })
        : [],
    duration_seconds: durationSeconds(task),
    removed_at: task.removed_at,
    created_at: task.created_at,
    updated_at: task.updated_at,
  };
}

async function canceledBy(db: AdminDb, taskId: string): Promise<string | null> {
  const row = await db
    .selectFrom('audit_log')
    .select('actor')
    .where('target_id', '=', taskId)
    .where('action', '=', 'task.canceled')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.actor ?? null;
}

export interface ListQuery {
  status?: string;
  q?: string;
  /** 显示已隐藏: include the tasks an operator hid */
  includeHidden?: boolean;
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
  let filtered = db.selectFrom('tasks').where('task_type', '=', 'purchase');
  if (!query.includeHidden) filtered = filtered.where('removed_at', 'is', null);
  // the route checks the shape only: a status no task has lists nothing
  if (query.status) filtered = filtered.where('status', '=', query.status as PurchaseStatus);
  if (query.q) {
    const text = query.q;
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
    filtered = filtered.where((eb) =>
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
  const total =
    query.q || query.includeHidden
      ? (await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n
      : await countTasks(db, query.status);
  let q = filtered.select(LIST_COLUMNS).select(deviceName);
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
      version: t.version,
      priority: t.priority,
      syb_order_no: t.syb_order_no,
      order_no: t.syb_order_no,
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
  'started_at',
  'created_at',
  'finished_at',
  'removed_at',
  'updated_at',
] as const;

/** A task's device by its display name (a subquery, so the task filters stay unambiguous). */
const deviceName = (eb: ExpressionBuilder<AdminDatabase, 'tasks'>) =>
  eb
    .selectFrom('device_credentials as dc')
    .select('dc.display_name')
    .whereRef('dc.device_id', '=', 'tasks.device_id')
    .as('device_name');

/** Tasks in `status`, or all of them: a read of `task_counts`, never a scan of `tasks`. */
async function countTasks(db: AdminDb, status: string | undefined): Promise<number> {
  let q = db.selectFrom('task_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), sql<number>`0`).as('n'));
  if (status) q = q.where('status', '=', status);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * States the phone has stopped in, waiting for a person (not terminal, so no finished_at): the
 * task's last change is when it stopped, and nothing but the operator's action changes it next.
 */
const STOPPED: ReadonlySet<string> = new Set(PURCHASE_STATUSES.filter((s) => phaseOf(s) === 'person'));

/** A task's times as 用时 reads them. */
type Timed = Record<'status' | 'created_at' | 'updated_at', string> &
  Record<'started_at' | 'finished_at', string | null>;

/** 用时: from the start (or creation) to the end, or to the stop a person has to act on. */
function durationSeconds(t: Timed): number | null {
  const from = t.started_at ?? t.created_at;
  const to = t.finished_at ?? (STOPPED.has(t.status) ? t.updated_at : null);
  if (!to) return null;
  return Math.max(0, Math.round((parseUtcTimestamp(to).getTime() - parseUtcTimestamp(from).getTime()) / 1000));
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
  throw badRequest('INVALID_CURSOR', 'cursor is not one this API returned; start again without it');
}
