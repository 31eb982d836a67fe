import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { z } from 'zod';
import { ExecutionModeAttr, GoodsIdAttr, TaskIdAttr, TaskStatusAttr } from '../../domain/search-attributes';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import { OPERATOR_WAIT_DAYS_DEFAULT, type PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import { claimPriorityKey, TASK_PRIORITY } from '../../domain/purchase/priority';
import type { TemporalGateway } from '../temporal/gateway';
// type-only: the admin never loads workflow code, the start's arguments are checked against it
import type { purchase } from '../../workflows/purchase';

const operatorWaitDaysSchema = z.coerce.number().int().min(1).max(365).default(OPERATOR_WAIT_DAYS_DEFAULT);
// Built once, read per start: building the schema for each of a batch's 500 starts was a third of
// what a start cost the admin's event loop (docs/PERFORMANCE.md).
let waitDaysRead: { raw: string | undefined; days: number } | undefined;

/**
 * How many days a purchase parked for its operator waits before its workflow closes and the
 * admin's repair takes the task (docs/versioning.md): CMAUTOBUY_OPERATOR_WAIT_DAYS, default 30.
 */
function operatorWaitDays(): number {
  const raw = process.env.CMAUTOBUY_OPERATOR_WAIT_DAYS;
  if (waitDaysRead === undefined || waitDaysRead.raw !== raw)
    waitDaysRead = { raw, days: operatorWaitDaysSchema.parse(raw) };
  return waitDaysRead.days;
}

/**
 * Starting is idempotent by workflow id: a running workflow is joined, a closed one is never
 * started again (REJECT_DUPLICATE) — an authorization is used at most once. The task's priority
 * is the workflow's Temporal priority, which its claim activity inherits: a free phone is handed
 * the waiting claim of the highest priority, then the oldest (docs/architecture.md §3).
 */
export async function startPurchaseWorkflow(
  temporal: TemporalGateway,
  workflowId: string,
  input: PurchaseWorkflowInput,
  priority: number = TASK_PRIORITY.default,
): Promise<void> {
  const client = await temporal.client();
  try {
    await client.workflow.start<typeof purchase>('purchase', {
      workflowId,
      taskQueue: ADMIN_TASK_QUEUE,
      args: [{ ...input, operatorWaitDays: operatorWaitDays() }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      priority: { priorityKey: claimPriorityKey(priority) },
      // what the Temporal Web UI shows for the run: the task at a glance, then its constraints
      staticSummary: `采购 ${input.taskId} · 商品 ${input.goodsId} · ${input.mode === 'live' ? '真实下单' : '试运行'}`,
      staticDetails: [
        `任务 ${input.taskId}，授权 ${input.authorizationId}`,
        `商品 ${input.goodsId}：${Object.entries(input.options)
          .map(([k, v]) => `${k}=${v}`)
          .join('，')} × ${input.quantity}`,
        `总价上限 ${(input.maxTotalPriceCent / 100).toFixed(2)} 元，模式 ${input.mode}，授权到期 ${input.expiresAt}`,
      ].join('\n'),
      typedSearchAttributes: [
        { key: TaskIdAttr, value: input.taskId },
        { key: GoodsIdAttr, value: input.goodsId },
        { key: TaskStatusAttr, value: 'PENDING' },
        { key: ExecutionModeAttr, value: input.mode },
      ],
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    throw err;
  }
}
