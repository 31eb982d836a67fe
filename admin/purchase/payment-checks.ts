import type { AttentionItem } from '../../domain/attention';
import { ApiError, conflict, notFound } from '../../domain/api-error';
import { paymentCheckRequested, paymentCheckWorkflowId } from '../../domain/contracts/payment-check';
import type { PaymentCheckView } from '../../domain/purchase/payment-check';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import type { Logger } from '../../platform/logger';
import { recordAudits, type AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import type { TemporalGateway } from '../temporal/gateway';
// type-only: the admin never loads workflow code, the start's arguments are checked against it
import type { paymentCheck } from '../../workflows/payment-check';
import { actOnTask } from './actions';

type Deps = { db: AdminDb; temporal: TemporalGateway; log: Logger };

/** One task's answer in a bulk 标记已付款. */
export type MarkPaidResult =
  { task_id: string; result: 'applied' } | { task_id: string; result: 'refused'; code: string; message: string };

/** Tasks marked paid at once by one request; each through the one action (./actions.ts). */
const MARKED_AT_ONCE = 4;

/**
 * 标记已付款 for several tasks: each is the single action (./actions.ts) on the version the
 * operator saw — a task changed since is refused as VERSION_CONFLICT, not marked — and answers
 * on its own, applied or refused with its code. The tasks marked are then checked on their phones
 * (requestPaymentChecks).
 */
export async function markPaidMany(
  deps: Deps,
  actor: AuditActor,
  items: ReadonlyArray<{ task_id: string; version: number }>,
): Promise<MarkPaidResult[]> {
  const ids = items.map((i) => i.task_id);
  if (new Set(ids).size !== ids.length)
    throw conflict('DUPLICATE_TASKS', 'the same task is listed twice', { task_ids: ids });
  const results: MarkPaidResult[] = new Array<MarkPaidResult>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await markOne(deps, actor, items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(MARKED_AT_ONCE, items.length) }, worker));
  const applied = results.filter((r) => r.result === 'applied').map((r) => r.task_id);
  await requestPaymentChecks(deps, actor, applied);
  return results;
}

async function markOne(
  deps: Deps,
  actor: AuditActor,
  item: { task_id: string; version: number },
): Promise<MarkPaidResult> {
  const refused = (code: string, message: string): MarkPaidResult => ({
    task_id: item.task_id,
    result: 'refused',
    code,
    message,
  });
  const task = await deps.db
    .selectFrom('tasks')
    .select(['version', 'task_type'])
    .where('task_id', '=', item.task_id)
    .executeTakeFirst();
  if (!task || task.task_type !== 'purchase') return refused('TASK_NOT_FOUND', '任务不存在');
  if (task.version !== item.version)
    return refused('VERSION_CONFLICT', `任务已被修改（当前版本 ${task.version}），请刷新后重试`);
  try {
    const outcome = await actOnTask(deps, actor, item.task_id, 'mark-paid');
    if (outcome === 'pending')
      return refused('UPDATE_PENDING', '操作已交给工作流，但未在时限内完成；请稍后刷新查看结果');
    if (outcome.result === 'superseded') return refused('STATE_CHANGED', `任务状态已变为 ${outcome.status}，请刷新`);
    return { task_id: item.task_id, result: 'applied' };
  } catch (err) {
    if (err instanceof ApiError) return refused(err.code, err.message);
    throw err;
  }
}

/**
 * Asks each phone to look at its 待付款 list for these tasks (workflows/payment-check.ts): a
 * `pending` check per task, then one workflow per phone, started or told again. A task with no
 * phone cannot be looked at and says so. A workflow that cannot be reached now (Temporal down)
 * leaves its checks pending; 重新核对 asks again.
 */
async function requestPaymentChecks(deps: Deps, actor: AuditActor, taskIds: readonly string[]): Promise<void> {
  if (taskIds.length === 0) return;
  const tasks = await deps.db
    .selectFrom('tasks')
    .select(['task_id', 'device_id', 'pdd_order_no'])
    .where('task_id', 'in', taskIds)
    .execute();
  // milliseconds: a request is told apart from the look it came after (activities/admin/payment-check.ts)
  const now = new Date().toISOString();
  const phones = new Set<string>();
  for (const t of tasks) {
    const row = t.device_id
      ? { status: 'pending' as const, checked_at: null, message: null }
      : { status: 'unavailable' as const, checked_at: now, message: '任务没有记录下单的手机，无法在手机上核对' };
    await deps.db
      .insertInto('payment_checks')
      .values({
        task_id: t.task_id,
        device_id: t.device_id ?? '',
        pdd_order_no: t.pdd_order_no,
        requested_at: now,
        ...row,
      })
      .onConflict((oc) =>
        oc
          .column('task_id')
          .doUpdateSet({ device_id: t.device_id ?? '', pdd_order_no: t.pdd_order_no, requested_at: now, ...row }),
      )
      .execute();
    if (t.device_id) phones.add(t.device_id);
  }
  await recordAudits(
    deps.db,
    actor,
    tasks.map((t) => ({
      action: 'task.payment_check_requested',
      target: { kind: 'task', id: t.task_id },
      details: { device_id: t.device_id, pdd_order_no: t.pdd_order_no },
    })),
  );
  for (const deviceId of phones) {
    try {
      const client = await deps.temporal.client();
      await client.workflow.signalWithStart<typeof paymentCheck>('paymentCheck', {
        workflowId: paymentCheckWorkflowId(deviceId),
        taskQueue: ADMIN_TASK_QUEUE,
        args: [{ deviceId }],
        signal: paymentCheckRequested,
        signalArgs: [],
        staticSummary: `核对已付款：手机 ${deviceId} 的待付款列表（只读）`,
      });
    } catch (err) {
      deps.log.warn({ err: (err as Error).message, deviceId }, 'payment check not started; its tasks stay pending');
    }
  }
}

/** 重新核对: a task marked paid is looked at again on its phone. */
export async function recheckPayment(deps: Deps, actor: AuditActor, taskId: string): Promise<void> {
  const task = await deps.db
    .selectFrom('tasks')
    .select(['status', 'task_type'])
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  if (!task || task.task_type !== 'purchase') throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  if (task.status !== 'SUCCEEDED')
    throw conflict('ACTION_NOT_ALLOWED', `只有已付款的任务可以核对（当前状态 ${task.status}）`, {
      status: task.status,
    });
  await requestPaymentChecks(deps, actor, [taskId]);
}

/** The latest check of a task as the task page shows it; null: never marked paid here. */
export async function paymentCheckOf(db: AdminDb, taskId: string): Promise<PaymentCheckView | null> {
  const row = await db
    .selectFrom('payment_checks')
    .select(['status', 'checked_at', 'message'])
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  return row ?? null;
}

/** 需处理: the tasks marked paid whose order the phone still lists as 待付款. */
export async function paymentMismatches(db: AdminDb): Promise<AttentionItem[]> {
  const rows = await db
    .selectFrom('payment_checks as pc')
    .innerJoin('tasks as t', 't.task_id', 'pc.task_id')
    .select(['pc.task_id', 'pc.checked_at', 'pc.requested_at', 't.title', 't.device_id'])
    .where('pc.status', '=', 'mismatch')
    .execute();
  return rows.map((r) => ({
    kind: 'task',
    id: r.task_id,
    reason_code: 'PAYMENT_MISMATCH',
    reason_zh: '已标记付款，但手机上仍是待付款',
    since: r.checked_at ?? r.requested_at,
    title: r.title,
    device_id: r.device_id,
  }));
}
