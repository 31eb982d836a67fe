import { nowUtc } from '../../domain/time';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { ApiError, conflict } from '../../domain/api-error';
import { recordPurchasesStarted } from '../metrics/metrics';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../temporal/gateway';
import type { DraftWarning } from '../../domain/purchase/views';
import { phoneClaimStates } from '../devices/claimability';
import { authorizePurchases, type Authorized, type StartedTask, type StartRequestItem } from './authorize';
import { claimWarningsOf } from './claim-warnings';
import { readIntSetting } from './settings';
import { collectRefusals } from './start-recheck';
import { startPurchaseWorkflow } from './workflow-client';
import { purchaseWorkflowInput } from './workflow-input';

/**
 * 「开始采购」: ONE transaction checks every task's version and state, and each draft against
 * the latest collect (./start-recheck.ts), and creates every one-time authorization — all or
 * nothing (./authorize.ts). Workflows start after the commit; one that cannot start now
 * (Temporal down) is started by the sweep, so nothing is lost.
 */
export async function startPurchases(
  deps: { db: AdminDb; temporal: TemporalGateway; log: Logger },
  actor: AuditActor,
  items: StartRequestItem[],
): Promise<Array<StartedTask & { warnings: DraftWarning[] }>> {
  const ids = items.map((i) => i.task_id);
  if (new Set(ids).size !== ids.length)
    throw conflict('DUPLICATE_TASKS', 'the same task is listed twice', { task_ids: ids });
  const maxQuantity = await readIntSetting(deps.db, 'safety.max_quantity');
  const ttlMinutes = await readIntSetting(deps.db, 'purchase.authorization_ttl_minutes');
  const planned = await writeTransaction(deps.db, async (trx) => {
    const stale = await collectRefusals(trx, items);
    let authorized: Authorized[];
    try {
      authorized = await authorizePurchases(trx, actor, items, { maxQuantity, ttlMinutes });
    } catch (err) {
      if (stale.length > 0 && err instanceof ApiError && err.code === 'START_REFUSED')
        throw startRefused([...refusalsOf(err), ...stale]);
      throw err;
    }
    // the authorizations just written roll back with the transaction
    if (stale.length > 0) throw startRefused(stale);
    return authorized;
  });
  recordPurchasesStarted(planned.length);
  // read before the workflows start, so a phone about to take one of them does not count as busy
  const phones = await phoneClaimStates(deps.db);

  const starting = startWorkflows(deps, planned);
  if (planned.length > WORKFLOW_STARTS_AT_ONCE)
    await Promise.race([starting, sleep(ANSWER_WAITS_FOR_STARTS_MS, undefined, { ref: false })]);
  else await starting;
  // no silent wait: each task says when no phone will take it, and a live one when none could submit it
  return planned.map((p) => ({
    ...p.started,
    warnings: claimWarningsOf(phones, { status: 'PENDING', execution_mode: p.input.mode }).warnings,
  }));
}

type Refusal = { task_id: string; code: string; message: string };

const refusalsOf = (err: ApiError): Refusal[] => (err.details as { tasks?: Refusal[] } | undefined)?.tasks ?? [];

/** One refusal per task, the authorization's first (a stale version says more than a stale collect). */
function startRefused(refusals: readonly Refusal[]): ApiError {
  const seen = new Set<string>();
  const tasks = refusals.filter((r) => !seen.has(r.task_id) && seen.add(r.task_id));
  return conflict('START_REFUSED', 'no task was started: fix the listed tasks and try again', { tasks });
}

/**
 * How long the answer to a batch larger than one round of starts waits for its workflows. The
 * starts go as fast as the Temporal server persists them — on the embedded dev server about fifty
 * a second while the batch's first purchases already run — so 500 tasks kept the operator's
 * button busy for ten seconds. What 开始采购 promises is already done at the commit: every task
 * authorised and PENDING, all or nothing. The rest of the starts go on after the answer, and one
 * that fails, or that an admin restart cuts off, is started by the sweep, as when Temporal is
 * down. A batch of one round (most of them) is answered once its workflows run.
 */
const ANSWER_WAITS_FOR_STARTS_MS = 2_000;

/**
 * The inputs are the ones just committed: no read back per task. Each start that succeeded is
 * noted in one write at the end; one that failed is left to the sweep. Never rejects: it may
 * outlive the request that began it.
 */
async function startWorkflows(
  deps: { db: AdminDb; temporal: TemporalGateway; log: Logger },
  planned: readonly Authorized[],
): Promise<void> {
  const startedIds: string[] = [];
  const ids = planned.map((p) => p.started.authorization_id);
  for (const id of ids) startsUnderWay.add(id);
  await forEachAtMost(WORKFLOW_STARTS_AT_ONCE, planned, async ({ started, input, priority }) => {
    try {
      await startPurchaseWorkflow(deps.temporal, started.workflow_id, input, priority);
      startedIds.push(started.authorization_id);
    } catch (err) {
      deps.log.warn(
        { err: (err as Error).message, task: started.task_id },
        'purchase workflow not started yet; the sweep will start it',
      );
    }
  });
  try {
    await markWorkflowsStarted(deps.db, startedIds);
  } catch (err) {
    // the workflows run; the sweep's second start of one is a no-op by workflow id
    deps.log.warn({ err: (err as Error).message }, 'could not note the started workflows; the sweep will');
  } finally {
    for (const id of ids) startsUnderWay.delete(id);
  }
}

/**
 * The authorizations whose workflows this process is starting right now. The sweep leaves them
 * alone: a 500-task batch's starts go on for seconds after the answer, and a sweep in between
 * started every one of them a second time beside it (no-ops by workflow id, but each a Temporal
 * round trip and two reads while the batch's own starts are still going out).
 */
export const startsUnderWay = new Set<string>();

/** `workflow_started_at` of these authorizations, in one statement per 500 (SQLite's parameter limit). */
async function markWorkflowsStarted(db: AdminDb, authorizationIds: string[]): Promise<void> {
  const at = nowUtc();
  for (let i = 0; i < authorizationIds.length; i += 500)
    await db
      .updateTable('order_authorizations')
      .set({ workflow_started_at: at })
      .where('id', 'in', authorizationIds.slice(i, i + 500))
      .where('workflow_started_at', 'is', null)
      .execute();
}

/**
 * Workflow starts in flight at once after the commit: each is a Temporal round trip, so one at a
 * time made a 500-task batch wait half a minute (docs/PERFORMANCE.md); a bound keeps a batch
 * from flooding the frontend and the admin's SQLite writer. Starting twice stays harmless: the
 * start is idempotent by workflow id.
 */
const WORKFLOW_STARTS_AT_ONCE = 32;

async function forEachAtMost<T>(limit: number, items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Starts (idempotently, by workflow id) the workflow of one authorization and notes that it did. */
export async function startAuthorizedWorkflow(
  deps: { db: AdminDb; temporal: TemporalGateway },
  authorizationId: string,
): Promise<void> {
  const auth = await deps.db
    .selectFrom('order_authorizations')
    .selectAll()
    .where('id', '=', authorizationId)
    .executeTakeFirstOrThrow();
  const input = purchaseWorkflowInput(auth);
  // fixed once started: only a draft's priority can be changed
  const task = await deps.db
    .selectFrom('tasks')
    .select('priority')
    .where('task_id', '=', auth.task_id)
    .executeTakeFirstOrThrow();
  await startPurchaseWorkflow(deps.temporal, auth.workflow_id, input, task.priority);
  await deps.db
    .updateTable('order_authorizations')
    .set({ workflow_started_at: nowUtc() })
    .where('id', '=', auth.id)
    .where('workflow_started_at', 'is', null)
    .execute();
}
