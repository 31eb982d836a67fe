import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ExecutionModeAttr, GoodsIdAttr, TaskIdAttr, TaskStatusAttr } from '../../domain/search-attributes';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import type { PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import type { TemporalGateway } from '../temporal/gateway';

/**
 * Starting is idempotent by workflow id: a running workflow is joined, a closed one is never
 * started again (REJECT_DUPLICATE) — an authorization is used at most once.
 */
export async function startPurchaseWorkflow(
  temporal: TemporalGateway,
  workflowId: string,
  input: PurchaseWorkflowInput,
): Promise<void> {
  const client = await temporal.client();
  try {
    await client.workflow.start('purchase', {
      workflowId,
      taskQueue: ADMIN_TASK_QUEUE,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
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
