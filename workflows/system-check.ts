import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { AdminActivities } from '../activities/admin';
import type { SystemCheckResult } from '../domain/system-check';

const { recordSystemCheck } = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});

/**
 * The smallest real round trip: admin API → Temporal → admin worker → admin DB → back.
 * Operators run it from 设置 to prove the pipeline; `holdSeconds` keeps it open long enough
 * for the reliability test to restart the server underneath it.
 */
export async function systemCheck(input: { holdSeconds: number }): Promise<SystemCheckResult> {
  if (input.holdSeconds > 0) await sleep(input.holdSeconds * 1000);
  return recordSystemCheck({ workflowId: workflowInfo().workflowId });
}
