import { proxyActivities } from '@temporalio/workflow';
import type { DevicePurchaseActivities } from '../activities/device/purchase-contract';
import type { ClaimDeviceActivities, DeviceActivities, DeviceClaim } from '../activities/device/types';
import { DEVICES_TASK_QUEUE } from '../domain/task-queues';

/**
 * The purchase workflow's view of a phone. Retry policies follow what each step may risk:
 * preparing is repeatable (it reopens the goods), submitting happens at most once, reading is
 * read-only and may retry.
 */
export async function claimPhone(waitMs: number): Promise<DeviceClaim> {
  // No idle phone before the authorization expires → the claim times out → expiry.
  const { claimDevice } = proxyActivities<ClaimDeviceActivities>({
    taskQueue: DEVICES_TASK_QUEUE,
    scheduleToCloseTimeout: Math.max(1_000, waitMs),
    startToCloseTimeout: '30 seconds',
    // DEVICE_BUSY (a phone that was just claimed) sends the task back for the next idle one
    retry: { initialInterval: '1 second', backoffCoefficient: 1.5, maximumInterval: '5 seconds' },
  });
  return claimDevice();
}

export async function releasePhone(claim: DeviceClaim): Promise<void> {
  const { releaseDevice } = proxyActivities<DeviceActivities>({
    taskQueue: claim.task_queue,
    startToCloseTimeout: '30 seconds',
    // a phone host that is gone closes the claim itself once it sees the workflow closed
    scheduleToCloseTimeout: '10 minutes',
    retry: { maximumAttempts: 20 },
  });
  await releaseDevice({ claim });
}

export function phoneActivities(taskQueue: string) {
  return {
    prepare: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      scheduleToStartTimeout: '2 minutes',
      startToCloseTimeout: '5 minutes',
      retry: {
        maximumAttempts: 3,
        nonRetryableErrorTypes: ['APP_VERSION_UNSUPPORTED', 'GOODS_DELISTED', 'DEVICE_NOT_CLAIMED', 'PAGE_UNRECOGNIZED', 'CAPTCHA'],
      },
    }),
    submit: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      scheduleToStartTimeout: '1 minute',
      startToCloseTimeout: '1 minute',
      retry: { maximumAttempts: 1 },
    }),
    read: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      scheduleToStartTimeout: '2 minutes',
      startToCloseTimeout: '3 minutes',
      retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['DEVICE_NOT_CLAIMED'] },
    }),
  };
}
