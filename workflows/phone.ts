import { proxyActivities } from '@temporalio/workflow';
import type { DevicePurchaseActivities } from '../activities/device/purchase-contract';

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
