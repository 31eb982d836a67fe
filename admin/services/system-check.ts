import { randomUUID } from 'node:crypto';
import { systemCheckResultSchema, type SystemCheckResult } from '../../domain/system-check';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import type { TemporalGateway } from '../temporal/gateway';
import type { systemCheck } from '../../workflows/system-check';

export async function runSystemCheck(temporal: TemporalGateway, holdSeconds: number): Promise<SystemCheckResult> {
  const client = await temporal.client();
  const result = await client.workflow.execute<typeof systemCheck>('systemCheck', {
    workflowId: `system-check/${randomUUID()}`,
    taskQueue: ADMIN_TASK_QUEUE,
    args: [{ holdSeconds }],
    workflowExecutionTimeout: '5 minutes',
  });
  return systemCheckResultSchema.parse(result);
}
