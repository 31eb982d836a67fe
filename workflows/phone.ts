import { proxyActivities } from '@temporalio/workflow';
import type { DevicePurchaseActivities } from '../domain/contracts/device-activities';
import { NON_RETRYABLE_DEVICE_FAILURES } from '../domain/purchase/failures';

// The failure flag already stops a retry; listing the codes too keeps that true for a device
// worker that sets the flag wrong.
const FINAL = [...NON_RETRYABLE_DEVICE_FAILURES];

/**
 * The purchase workflow's view of a claimed phone (claim and release: ./device-claim). Retry
 * policies follow what each step may risk: preparing is repeatable (it reopens the goods),
 * submitting happens at most once, reading is read-only and may retry.
 */
export function phoneActivities(taskQueue: string) {
  return {
    prepare: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      scheduleToStartTimeout: '2 minutes',
      startToCloseTimeout: '5 minutes',
      retry: { maximumAttempts: 3, nonRetryableErrorTypes: FINAL },
    }),
    submit: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      scheduleToStartTimeout: '1 minute',
      startToCloseTimeout: '1 minute',
      // one tap, ever: a failure is an unknown outcome to reconcile, never a retry
      retry: { maximumAttempts: 1 },
    }),
    read: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      scheduleToStartTimeout: '2 minutes',
      startToCloseTimeout: '3 minutes',
      retry: { maximumAttempts: 3, nonRetryableErrorTypes: FINAL },
    }),
  };
}
