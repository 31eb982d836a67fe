import type { AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import { conflict } from '../../domain/api-error';
import { purchaseTaskRow } from './task-row';
import { createPurchaseDraft, type DraftCreated } from './drafts';

/**
 * 复制为真实下单: after a dry run passed, a new live DRAFT with the same goods, options,
 * quantity and cap (and the same order line, if any). It authorises nothing by itself; the
 * operator still starts it, and the live start shows its own warning. It is made by the one
 * draft creator, so it is judged as any draft (the goods' collect as it is now).
 */
export async function copyAsLive(db: AdminDb, actor: AuditActor, taskId: string): Promise<DraftCreated> {
  const task = await purchaseTaskRow(db, taskId);
  if (task.status !== 'DRY_RUN_PASSED') throw conflict('ACTION_NOT_ALLOWED', '只有试运行通过的任务可以复制为真实下单');
  const orderLine =
    task.syb_id !== null && task.syb_order_no !== null && task.shopee_goods_id !== null && task.shopee_sku_id !== null
      ? {
          sybId: task.syb_id,
          sybOrderNo: task.syb_order_no,
          shopeeGoodsId: task.shopee_goods_id,
          shopeeSkuId: task.shopee_sku_id,
        }
      : undefined;
  const copy = createPurchaseDraft(
    db,
    actor,
    {
      type: 'purchase',
      pdd_goods_url: task.pdd_goods_url,
      pdd_options: JSON.parse(task.pdd_options ?? '{}') as Record<string, string>,
      quantity: task.quantity ?? 1,
      max_total_price_cent: task.max_total_price_cent ?? 0,
      execution_mode: 'live',
      priority: task.priority,
      ...(task.title !== null ? { title: task.title } : {}),
    },
    { source: task.source ?? 'manual', sourceRef: task.source_ref ?? taskId, ...(orderLine ? { orderLine } : {}) },
  );
  // An order line has at most one live task (migrations/0030_syb.ts): a second copy is refused.
  return copy.catch((err: unknown) => {
    const e = err as { code?: unknown; message?: unknown };
    if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string' && e.message.includes('tasks.syb_id')) {
      throw conflict('ALREADY_DRAFTED', '这条订单明细已有进行中的采购任务');
    }
    throw err;
  });
}
