import { isTerminal } from '../../domain/purchase/state-machine';
import { isPurchaseStatus } from '../../domain/purchase/state-machine';
import { STATUS_ZH } from '../../domain/purchase/status';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict } from '../../domain/api-error';

/**
 * 隐藏已结束的任务: all or nothing, and only tasks in a terminal state of the state machine —
 * a task still running, waiting for payment or for reconciliation stays in sight, since an
 * operator may still have to act on it. Nor a task that placed an order on PDD (提交订单 was
 * tapped, whatever came of it): the books must keep every real order in sight. Hiding is a soft
 * delete (`removed_at`): nothing else about the task changes, and 显示已隐藏 lists it again.
 */
export async function hideTasks(
  db: AdminDb,
  actor: AuditActor,
  taskIds: readonly string[],
): Promise<{ hidden: string[] }> {
  const ids = [...new Set(taskIds)];
  return writeTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom('tasks')
      .select(['task_id', 'task_type', 'status', 'removed_at'])
      .where('task_id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.task_id, r]));
    const ordered = new Set(
      (
        await trx
          .selectFrom('order_submissions')
          .select('task_id')
          .where('task_id', 'in', ids)
          .where('order_submitted_at', 'is not', null)
          .execute()
      ).map((r) => r.task_id),
    );
    const refusals: Array<{ task_id: string; code: string; message: string }> = [];
    for (const id of ids) {
      const t = byId.get(id);
      if (!t || t.task_type !== 'purchase')
        refusals.push({ task_id: id, code: 'TASK_NOT_FOUND', message: '任务不存在' });
      // a status this build does not know is never taken for a finished one
      else if (!isPurchaseStatus(t.status) || !isTerminal(t.status)) {
        refusals.push({
          task_id: id,
          code: 'NOT_FINISHED',
          message: `任务尚未结束（${isPurchaseStatus(t.status) ? STATUS_ZH[t.status] : t.status}），不能隐藏`,
        });
      } else if (ordered.has(id))
        refusals.push({
          task_id: id,
          code: 'ORDER_PLACED',
          message: '已在拼多多下单的任务不能隐藏：账目须与实际订单一致',
        });
    }
    if (refusals.length > 0)
      throw conflict('HIDE_REFUSED', '没有任何任务被隐藏：只有已结束、且没有在拼多多下单的任务可以隐藏', {
        tasks: refusals,
      });
    const now = nowUtc();
    const fresh = ids.filter((id) => byId.get(id)?.removed_at === null);
    if (fresh.length > 0)
      await trx
        .updateTable('tasks')
        .set({ removed_at: now })
        .where('task_id', 'in', fresh)
        .where('removed_at', 'is', null)
        .execute();
    for (const id of fresh)
      await recordAudit(trx, actor, {
        action: 'task.hide',
        target: { kind: 'task', id },
        details: { status: byId.get(id)!.status },
      });
    return { hidden: ids };
  });
}
