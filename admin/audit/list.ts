import { sql, type RawBuilder } from 'kysely';
import { invalidInput } from '../../domain/api-error';
import { decodeCursor, encodeCursor } from '../catalog/common';
import type { AdminDb } from '../db/database';
import type { AuditListItem, AuditPage } from '../../domain/audit-views';

export interface AuditListFilter {
  /** exact, or every action starting with what precedes a trailing `*` (`task.*`) */
  action?: string | undefined;
  /** rows about that phone: its target, the device that acted, or a `device_id` in the details */
  deviceId?: string | undefined;
  /** rows whose target is that task */
  taskId?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/**
 * The phone a row is about. Verbatim the expression of `audit_log_device_idx`
 * (migrations/0170_audit_log_indexes.ts): SQLite uses an expression index only for the same one.
 */
const DEVICE_OF_ROW: RawBuilder<string | null> =
  sql`(case when target_kind = 'device' then target_id when actor_kind = 'device' then actor else json_extract(details_json, '$.device_id') end)`;

/**
 * A prefix names at most this many actions before the page is read as one index range that
 * SQLite sorts; below it, each action is read as its own range in list order and merged.
 */
const PREFIX_ACTIONS_MERGED = 64;

/**
 * Always true (ids start at 1), and stated by the list alone: it names the partial
 * `audit_log_action_idx` (migrations/0170_audit_log_indexes.ts), which the other audit reads
 * then leave alone.
 */
const LISTED = sql<boolean>`id > 0`;

/** Cursor keys carry the list's name, so a cursor another list handed out is refused here. */
const CURSOR_PREFIX = 'audit:';

interface Row {
  id: number;
  occurred_at: string;
  actor: string;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  details_json: string | null;
}

type ActionMatch = { exact: string } | { from: string; below: string };

/**
 * 审计日志: who did what, to what, when, newest first (keyset on id, which is write order).
 */
export async function listAudit(db: AdminDb, filter: AuditListFilter): Promise<AuditPage> {
  const before = beforeId(filter.cursor);
  const match = actionMatch(filter.action);
  let rows: Row[];
  if (match && 'from' in match && !filter.deviceId && !filter.taskId) {
    const actions = await actionsBetween(db, match.from, match.below);
    rows =
      actions.length > PREFIX_ACTIONS_MERGED
        ? await page(db, filter, before, match)
        : mergeNewestFirst(
            await Promise.all(actions.map((exact) => page(db, filter, before, { exact }))),
            filter.limit + 1,
          );
  } else {
    rows = await page(db, filter, before, match);
  }
  const shown = rows.slice(0, filter.limit);
  const last = shown[shown.length - 1];
  return {
    items: shown.map(itemOf),
    next_cursor: rows.length > filter.limit && last ? encodeCursor(`${CURSOR_PREFIX}${last.id}`) : null,
  };
}

function beforeId(cursor: string | undefined): number | undefined {
  const key = decodeCursor(cursor);
  if (key === undefined) return undefined;
  const id = key.startsWith(CURSOR_PREFIX) ? key.slice(CURSOR_PREFIX.length) : '';
  if (!/^[1-9]\d{0,14}$/.test(id))
    throw invalidInput('INVALID_CURSOR', 'cursor is not one this API returned; start again without it');
  return Number(id);
}

/**
 * `task.*` is the range [`task.`, `task/`): actions are printable ASCII (the route checks), so
 * the prefix with its last character raised bounds every action that starts with it.
 */
function actionMatch(action: string | undefined): ActionMatch | undefined {
  if (action === undefined || action === '') return undefined;
  if (!action.endsWith('*')) return { exact: action };
  const prefix = action.slice(0, -1);
  if (prefix === '') return undefined;
  const below = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return { from: prefix, below };
}

/** The distinct actions in [from, below), one index seek each rather than a walk over every row. */
async function actionsBetween(db: AdminDb, from: string, below: string): Promise<string[]> {
  const found = await sql<{ action: string }>`
    with recursive seen(action) as (
      select min(action) from audit_log where ${LISTED} and action >= ${from} and action < ${below}
      union all
      select (select min(action) from audit_log where ${LISTED} and action > seen.action and action < ${below})
      from seen where seen.action is not null
    )
    select action from seen where action is not null limit ${PREFIX_ACTIONS_MERGED + 1}`.execute(db);
  return found.rows.map((r) => r.action);
}

/** One page (plus one row, to know whether another follows) under every filter. */
async function page(
  db: AdminDb,
  filter: AuditListFilter,
  before: number | undefined,
  match: ActionMatch | undefined,
): Promise<Row[]> {
  let q = db
    .selectFrom('audit_log')
    .select(['id', 'occurred_at', 'actor', 'action', 'target_kind', 'target_id', 'details_json'])
    .where(LISTED)
    .orderBy('id', 'desc')
    .limit(filter.limit + 1);
  if (before !== undefined) q = q.where('id', '<', before);
  if (match && 'exact' in match) q = q.where('action', '=', match.exact);
  if (match && 'from' in match) q = q.where('action', '>=', match.from).where('action', '<', match.below);
  if (filter.taskId) q = q.where('target_kind', '=', 'task').where('target_id', '=', filter.taskId);
  if (filter.deviceId) q = q.where(DEVICE_OF_ROW, '=', filter.deviceId);
  return q.execute();
}

function mergeNewestFirst(pages: Row[][], take: number): Row[] {
  return pages
    .flat()
    .sort((a, b) => b.id - a.id)
    .slice(0, take);
}

function itemOf(row: Row): AuditListItem {
  return {
    at: row.occurred_at,
    actor: row.actor,
    action: row.action,
    target: row.target_kind !== null && row.target_id !== null ? { kind: row.target_kind, id: row.target_id } : null,
    details: row.details_json === null ? null : (JSON.parse(row.details_json) as unknown),
  };
}
