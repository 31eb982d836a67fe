import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { nowUtc, toUtcTimestamp } from '../../domain/time';
import type { RestoreNotice } from '../../domain/ui-config';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { recordAudit } from '../audit/audit';
import type { AdminDb } from '../db/database';
import { CATCH_UP_ACTOR } from './catch-up-write';

/**
 * What a restore cost, said once per restore in the audit row `restore.lost_drafts` and read
 * back for the operator's banner on 任务 (`GET /api/config`). The drafts created after the backup
 * and never started have no workflow: only the database the restore replaced
 * (`admin.db.before-restore-*`) can name them. Without it the row says how many purchase
 * workflows had no task in the restored database.
 */

const RESTORE_ACTION = 'restore.lost_drafts';

/** How long after a restore the 任务 page still shows it; the audit row stays for good. */
const NOTICE_DAYS = 7;

/** What the start's catch-up did, as the row and the banner count it. */
export interface CatchUpCounts {
  caughtUp: readonly string[];
  recreated: readonly string[];
  /** workflow ids of purchases whose task is not in the database after the catch-up (their write failed) */
  unmatched: readonly string[];
}

/** The row's details (one shape for the named and the counted case). */
interface RestoreDetails {
  /** the database the restore replaced, beside the admin's; null when none was there to read */
  replaced_file: string | null;
  /** the drafts it held that are gone; null when they cannot be named */
  tasks: Array<{ task_id: string; title: string | null; status: string }> | null;
  caught_up: number;
  recreated: number;
  unmatched_workflows: string[];
}

/**
 * Writes the restore's audit row and log line, once: for the newest replaced database not read
 * yet, or — when there is none — for a start that found the database behind Temporal (restored
 * by hand, or its replaced file deleted). Answers the drafts it could name.
 */
export async function noteRestore(db: AdminDb, dbFile: string, log: Logger, done: CatchUpCounts): Promise<string[]> {
  const replaced = await unreadReplacedFile(db, dbFile);
  const counts = {
    caught_up: done.caughtUp.length,
    recreated: done.recreated.length,
    unmatched_workflows: [...done.unmatched],
  };
  // an unreadable file names nothing: the start is then counted like one without it
  const before = replaced ? readReplacedTasks(path.join(path.dirname(dbFile), replaced), log) : null;
  if (replaced && before) {
    const lost = await notKept(db, before);
    await record(db, { kind: 'file', id: replaced }, { replaced_file: replaced, tasks: lost, ...counts });
    if (lost.length > 0)
      log.warn(
        { tasks: lost.map((t) => t.task_id), replaced },
        'drafts created after the backup and never started are gone with the restore: create them again',
      );
    warnUnmatched(log, done);
    return lost.map((t) => t.task_id);
  }
  const behind = done.caughtUp.length + done.recreated.length > 0;
  if (!behind && (done.unmatched.length === 0 || (await sameUnmatched(db, done.unmatched)))) return [];
  await record(db, { kind: 'restore', id: nowUtc() }, { replaced_file: null, tasks: null, ...counts });
  log.warn(
    { caughtUp: done.caughtUp.length, recreated: done.recreated.length, unmatched: done.unmatched.length },
    'the admin database was behind Temporal and no database a restore replaced is beside it: drafts created after the backup and never started cannot be named; check for them and create them again',
  );
  warnUnmatched(log, done);
  return [];
}

function warnUnmatched(log: Logger, done: CatchUpCounts): void {
  if (done.unmatched.length > 0)
    log.warn(
      { workflows: done.unmatched },
      'purchase workflows without a task in the restored database: the catch-up could not recreate them',
    );
}

async function record(db: AdminDb, target: { kind: string; id: string }, details: RestoreDetails): Promise<void> {
  await recordAudit(db, CATCH_UP_ACTOR, { action: RESTORE_ACTION, target, details: { ...details } });
}

/** The newest `<db>.before-restore-*` beside the database, unless a row already names it. */
async function unreadReplacedFile(db: AdminDb, dbFile: string): Promise<string | null> {
  const prefix = `${path.basename(dbFile)}.before-restore-`;
  const replaced = fs
    .readdirSync(path.dirname(dbFile))
    // not the side files SQLite keeps beside a database someone opened
    .filter((f) => f.startsWith(prefix) && !/-(wal|shm|journal)$/.test(f))
    .sort()
    .at(-1);
  if (!replaced) return null;
  const seen = await db
    .selectFrom('audit_log')
    .select('id')
    .where('target_kind', '=', 'file')
    .where('target_id', '=', replaced)
    .where('action', '=', RESTORE_ACTION)
    .executeTakeFirst();
  return seen ? null : replaced;
}

type ReplacedTask = { task_id: string; title: string | null; status: string };

function readReplacedTasks(file: string, log: Logger): ReplacedTask[] | null {
  try {
    const old = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return old
        .prepare(`select task_id, title, status from tasks where task_type = 'purchase'`)
        .all() as ReplacedTask[];
    } finally {
      old.close();
    }
  } catch (err) {
    log.warn(
      { err: describeError(err), file: path.basename(file) },
      'could not read the database the restore replaced',
    );
    return null;
  }
}

/** The replaced database's purchase tasks this one does not hold after the catch-up. */
async function notKept(db: AdminDb, before: ReplacedTask[]): Promise<ReplacedTask[]> {
  const kept = new Set<string>();
  for (let i = 0; i < before.length; i += 400) {
    const rows = await db
      .selectFrom('tasks')
      .select('task_id')
      .where(
        'task_id',
        'in',
        before.slice(i, i + 400).map((t) => t.task_id),
      )
      .execute();
    for (const r of rows) kept.add(r.task_id);
  }
  return before
    .filter((t) => !kept.has(t.task_id))
    .map((t) => ({ task_id: t.task_id, title: t.title, status: t.status }));
}

async function newestRow(db: AdminDb, since?: string) {
  let q = db
    .selectFrom('audit_log')
    .select(['id', 'occurred_at', 'details_json'])
    // the target index finds the few restore rows; the action alone has none
    .where('target_kind', 'in', ['file', 'restore'])
    .where('action', '=', RESTORE_ACTION);
  if (since) q = q.where('occurred_at', '>=', since);
  return q.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

function detailsOf(json: string | null): Partial<RestoreDetails> {
  try {
    return (JSON.parse(json ?? '{}') ?? {}) as Partial<RestoreDetails>;
  } catch {
    return {};
  }
}

/** A workflow that keeps failing is not a new restore: its row is written once. */
async function sameUnmatched(db: AdminDb, unmatched: readonly string[]): Promise<boolean> {
  const row = await newestRow(db);
  const named = row ? (detailsOf(row.details_json).unmatched_workflows ?? []) : [];
  return named.length === unmatched.length && unmatched.every((w) => named.includes(w));
}

/** The newest restore of the last days, for the 任务 page's banner; null when there was none. */
export async function readRestoreNotice(db: AdminDb, now = new Date()): Promise<RestoreNotice | null> {
  const row = await newestRow(db, toUtcTimestamp(new Date(now.getTime() - NOTICE_DAYS * 86_400_000)));
  if (!row) return null;
  const d = detailsOf(row.details_json);
  return {
    id: row.id,
    at: row.occurred_at,
    caught_up: d.caught_up ?? 0,
    recreated: d.recreated ?? 0,
    lost_drafts: d.tasks ? d.tasks.map((t) => ({ task_id: t.task_id, title: t.title })) : null,
    unmatched_workflows: d.unmatched_workflows?.length ?? 0,
  };
}
