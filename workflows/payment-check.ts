import { ApplicationFailure, CancellationScope, proxyActivities, setHandler } from '@temporalio/workflow';
import type { AdminActivities } from '../activities/admin';
import type {
  ClaimDeviceActivities,
  DeviceClaim,
  DevicePurchaseActivities,
} from '../domain/contracts/device-activities';
import { paymentCheckRequested, type PaymentCheckInput } from '../domain/contracts/payment-check';
import { deviceClaimTaskQueue } from '../domain/task-queues';
import { answerHoldsClaim, releasePhone } from './device-claim';
import { DEVICE_HEARTBEAT_TIMEOUT } from './phone';

const admin = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * How long the check waits for its phone to be free (a purchase on it, a pause, the phone off):
 * after that the tasks say the look could not be made, and a person checks on the phone.
 */
const WAIT_FOR_PHONE = '2 hours';

/**
 * After 标记已付款: a read-only look at THAT phone's 待付款 list, once it is free, for every task of
 * the phone marked paid and not yet checked. The phone is claimed on its own claim queue, which only
 * it polls, and only while idle (device-worker/runtime/claim-poller.ts): a purchase is never
 * interrupted, and no other phone can take the claim. The list is read by `readPendingOrders` —
 * navigation by intent, no taps. The admin records the verdict per task (a mismatch goes to 需处理).
 * One workflow per phone (domain/contracts/payment-check.ts): a task marked paid while it runs
 * signals it, and it looks again before it closes.
 */
export async function paymentCheck(input: PaymentCheckInput): Promise<{ checked: number }> {
  let asked = true;
  setHandler(paymentCheckRequested, () => {
    asked = true;
  });
  let held: DeviceClaim | null = null;
  answerHoldsClaim(() => held);
  let checked = 0;
  while (asked) {
    asked = false;
    const waiting = await admin.paymentChecksDue({ deviceId: input.deviceId });
    if (waiting.checks.length === 0) continue;
    let claim: DeviceClaim;
    try {
      claim = await claimThisPhone(input.deviceId);
    } catch {
      await admin.recordPaymentCheck({
        deviceId: input.deviceId,
        checks: waiting.checks,
        listed: null,
        why: '手机一直没有空闲（正在采购、已暂停或离线）',
      });
      checked += waiting.checks.length;
      continue;
    }
    held = claim;
    try {
      // read after the claim: every task marked paid before the look is covered by it
      const due = await admin.paymentChecksDue({ deviceId: input.deviceId });
      if (due.checks.length === 0) continue;
      const read =
        due.target === null
          ? { listed: null, why: '找不到这些订单在这台手机上的采购记录' }
          : await readPendingOrders(claim)
              .readPendingOrders({ claim, target: due.target })
              .then((r) => ({ listed: r.orders.map((o) => o.orderNo) }))
              .catch((err: unknown) => ({ listed: null, why: `读取手机上的待付款列表失败（${failureCode(err)}）` }));
      await admin.recordPaymentCheck({ deviceId: input.deviceId, checks: due.checks, ...read });
      checked += due.checks.length;
    } finally {
      held = null;
      await CancellationScope.nonCancellable(() => releasePhone(claim));
    }
  }
  return { checked };
}

/** Waits for this phone, and no other, to be free; a timeout is an ActivityFailure. */
function claimThisPhone(deviceId: string): Promise<DeviceClaim> {
  const { claimDevice } = proxyActivities<ClaimDeviceActivities>({
    taskQueue: deviceClaimTaskQueue(deviceId),
    scheduleToCloseTimeout: WAIT_FOR_PHONE,
    startToCloseTimeout: '30 seconds',
    summary: '等待这台手机空闲',
    // DEVICE_BUSY (the phone just got claimed for a purchase) waits for its next idle moment
    retry: { initialInterval: '1 second', backoffCoefficient: 1.5, maximumInterval: '5 seconds' },
  });
  return claimDevice();
}

function readPendingOrders(claim: DeviceClaim): DevicePurchaseActivities {
  return proxyActivities<DevicePurchaseActivities>({
    taskQueue: claim.task_queue,
    summary: '只读：待付款订单（核对已付款）',
    scheduleToStartTimeout: '2 minutes',
    startToCloseTimeout: '3 minutes',
    heartbeatTimeout: DEVICE_HEARTBEAT_TIMEOUT,
    retry: { maximumAttempts: 3 },
  });
}

function failureCode(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error) {
    if (e instanceof ApplicationFailure && e.type) return e.type;
    e = e.cause;
  }
  return err instanceof Error ? err.message : String(err);
}
