import type { Client } from '@temporalio/client';
import { DeviceIdAttr, TaskStatusAttr } from '../../domain/search-attributes';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { AdminDb } from '../db/database';
import type { TemporalGateway } from '../temporal/gateway';
import { readPurchaseHistory } from './catch-up-history';
import { noteRestore } from './catch-up-notice';
import { foldAdminWrites, looksInLine } from './catch-up-rules';
import { writeCaughtUp } from './catch-up-write';

/** One purchase workflow as the visibility list shows it. */
interface Listed {
  workflowId: string;
  runId: string;
  taskId: string;
  authorizationId: string;
  startedAt: number;
  /** the status its last admin write set (search attribute TaskStatus) */
  searchStatus: string | null;
  deviceId: string | null;
}

export interface CatchUpReport {
  /** tasks brought in line with their workflow (moved on, or given their submission) */
  caughtUp: string[];
  /** tasks created and started after the backup, recreated from their workflow */
  recreated: string[];
  /** tasks ahead of their workflow (an operator's repair): left as they are */
  ahead: string[];
  /** purchase tasks of the database a restore replaced that neither it nor Temporal knows: drafts never started */
  lostDrafts: string[];
  /** purchase workflows (ids) whose task is not in the database even after the catch-up: their write failed */
  unmatched: string[];
}

/** How long the catch-up waits for Temporal at start before the admin comes up without it. */
const LIST_DEADLINE_MS = 15_000;

/**
 * On admin start: a restored (older) admin database catches up with Temporal, the truth of every
 * purchase's progress. One visibility list of the purchase workflows, compared with the tasks;
 * only a workflow the database is behind has its history read, and its admin writes — status,
 * reason, phone, attempt, submission, PDD order number — are written again, each task in one
 * transaction with a `task.catch_up` audit row (./catch-up-write.ts). Read-only towards Temporal
 * and the phones: nothing is signalled, started or reset. Drafts created after the backup and
 * never started are gone; the database the restore replaced names them, once, in the log and
 * the audit row `restore.lost_drafts` the 任务 page shows (./catch-up-notice.ts).
 */
export async function catchUpWithTemporal(deps: {
  db: AdminDb;
  temporal: TemporalGateway;
  log: Logger;
  /** the admin database's file: a restore keeps the one it replaced beside it */
  dbFile: string;
}): Promise<CatchUpReport | null> {
  const { db, log } = deps;
  let client: Client;
  let listed: Listed[];
  try {
    client = await deps.temporal.client();
    listed = await client.withDeadline(Date.now() + LIST_DEADLINE_MS, () => listPurchases(client));
  } catch (err) {
    log.warn({ err: describeError(err) }, 'restore catch-up skipped: Temporal did not list the purchase workflows');
    return null;
  }
  const report: CatchUpReport = { caughtUp: [], recreated: [], ahead: [], lostDrafts: [], unmatched: [] };
  const failed: Listed[] = [];
  for (const wf of await notInLine(db, listed)) {
    try {
      const history = await readPurchaseHistory(client, wf.workflowId, wf.runId);
      const verdict = await writeCaughtUp(db, {
        workflowId: wf.workflowId,
        input: history.input,
        startedAt: history.startedAt,
        caught: foldAdminWrites(history.writes),
        deviceId: wf.deviceId,
      });
      if (verdict === 'missing') report.recreated.push(wf.taskId);
      else if (verdict === 'behind') report.caughtUp.push(wf.taskId);
      else if (verdict === 'ahead') report.ahead.push(wf.taskId);
    } catch (err) {
      log.error({ err: describeError(err), workflowId: wf.workflowId }, 'restore catch-up could not write a purchase');
      failed.push(wf);
    }
  }
  report.unmatched = await withoutTask(db, failed);
  report.lostDrafts = await noteRestore(db, deps.dbFile, log, report);
  if (report.caughtUp.length + report.recreated.length + report.ahead.length > 0)
    log.warn(report, 'the admin database was behind Temporal: purchases caught up from their workflows');
  return report;
}

async function listPurchases(client: Client): Promise<Listed[]> {
  const listed: Listed[] = [];
  for await (const wf of client.workflow.list({ query: `WorkflowType = 'purchase'` })) {
    // purchase/<taskId>/<authorizationId> (domain/purchase/workflow-types.ts)
    const [kind, taskId, authorizationId] = wf.workflowId.split('/');
    if (kind !== 'purchase' || !taskId || !authorizationId) continue;
    listed.push({
      workflowId: wf.workflowId,
      runId: wf.runId,
      taskId,
      authorizationId,
      startedAt: wf.startTime.getTime(),
      searchStatus: wf.typedSearchAttributes.get(TaskStatusAttr) ?? null,
      deviceId: wf.typedSearchAttributes.get(DeviceIdAttr) ?? null,
    });
  }
  return listed;
}

/** The workflows the database does not obviously match, oldest first: a task's later start builds on its earlier ones. */
async function notInLine(db: AdminDb, listed: readonly Listed[]): Promise<Listed[]> {
  const tasks = new Map<string, { status: string; authorizationId: string | null }>();
  const authorizations = new Set<string>();
  for (let i = 0; i < listed.length; i += 400) {
    const part = listed.slice(i, i + 400);
    const rows = await db
      .selectFrom('tasks')
      .select(['task_id', 'status', 'authorization_id'])
      .where('task_id', 'in', [...new Set(part.map((w) => w.taskId))])
      .execute();
    for (const r of rows) tasks.set(r.task_id, { status: r.status, authorizationId: r.authorization_id });
    const auths = await db
      .selectFrom('order_authorizations')
      .select('id')
      .where(
        'id',
        'in',
        part.map((w) => w.authorizationId),
      )
      .execute();
    for (const a of auths) authorizations.add(a.id);
  }
  return listed
    .filter(
      (w) =>
        !looksInLine(
          tasks.get(w.taskId) ?? null,
          authorizations.has(w.authorizationId),
          w.authorizationId,
          w.searchStatus,
        ),
    )
    .sort((a, b) => a.startedAt - b.startedAt);
}

/** The failed workflows whose task is not in the database: a later start of the same task may have written it. */
async function withoutTask(db: AdminDb, failed: readonly Listed[]): Promise<string[]> {
  if (failed.length === 0) return [];
  const held = new Set(
    (
      await db
        .selectFrom('tasks')
        .select('task_id')
        .where('task_id', 'in', [...new Set(failed.map((w) => w.taskId))])
        .execute()
    ).map((r) => r.task_id),
  );
  return failed.filter((w) => !held.has(w.taskId)).map((w) => w.workflowId);
}
