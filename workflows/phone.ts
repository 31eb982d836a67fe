import { proxyActivities } from '@temporalio/workflow';
import type { DevicePurchaseActivities } from '../domain/contracts/device-activities';
import { NON_RETRYABLE_DEVICE_FAILURES } from '../domain/purchase/failures';

// The failure flag already stops a retry; listing the codes too keeps that true for a device
// worker that sets the flag wrong.
const FINAL = [...NON_RETRYABLE_DEVICE_FAILURES];

/**
 * The device session heartbeats before every dump and every input (device-worker/pdd/session.ts),
 * and a dump takes a few seconds at most: a phone host that died, or lost its phone mid-step, is
 * noticed within this instead of at the start-to-close timeout. The heartbeat is also what
 * brings the operator's cancel to a running activity.
 */
export const DEVICE_HEARTBEAT_TIMEOUT = '30 seconds';

/**
 * The purchase workflow's view of a claimed phone (claim and release: ./device-claim). Retry
 * policies follow what each step may risk: preparing taps the page, so a failure stops with its
 * reason for a person to look at (the operator resets to try again); submitting happens at most
 * once; reading is read-only and may retry.
 */
export function phoneActivities(taskQueue: string) {
  return {
    prepare: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      summary: '打开商品 · 选规格 · Gate 1 · 数量 · Gate 2 · Gate 3（不提交）',
      scheduleToStartTimeout: '2 minutes',
      startToCloseTimeout: '5 minutes',
      heartbeatTimeout: DEVICE_HEARTBEAT_TIMEOUT,
      // page actions before the fence are never repeated by Temporal: NEEDS_MANUAL with the reason
      retry: { maximumAttempts: 1 },
    }),
    submit: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      summary: '提交订单（只点一次，从不付款）',
      // not taken within this: it never ran, so nothing was tapped (NEEDS_MANUAL, not reconcile)
      scheduleToStartTimeout: '1 minute',
      // submitOnce refuses to tap in the last 20 s of this (activities/device/purchase.ts)
      startToCloseTimeout: '1 minute',
      // one tap, ever: a failure is an unknown outcome to reconcile, never a retry
      retry: { maximumAttempts: 1 },
    }),
    read: proxyActivities<DevicePurchaseActivities>({
      taskQueue,
      summary: '只读：提交后的页面 / 待付款订单',
      scheduleToStartTimeout: '2 minutes',
      startToCloseTimeout: '3 minutes',
      heartbeatTimeout: DEVICE_HEARTBEAT_TIMEOUT,
      retry: { maximumAttempts: 3, nonRetryableErrorTypes: FINAL },
    }),
  };
}
