import type { Duration } from '@temporalio/common';
import { CancellationScope, log, proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { ClaimDeviceActivities, DeviceActivities, DeviceClaim } from '../domain/contracts/device-activities';
import { DEVICES_TASK_QUEUE } from '../domain/task-queues';

export interface WithDeviceOptions {
  /** how long to wait for an idle phone before giving up */
  waitForDevice: Duration;
  /** the options of the phone's activities */
  activity?: Omit<ActivityOptions, 'taskQueue'>;
}

export interface ClaimedDevice {
  claim: DeviceClaim;
  /** the device activities on this phone's own queue */
  activities: DeviceActivities;
}

const DEFAULT_ACTIVITY: Omit<ActivityOptions, 'taskQueue'> = {
  // a dead phone host is noticed here, not after the start-to-close timeout
  scheduleToStartTimeout: '1 minute',
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '3 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
};

/**
 * Claim a phone, run `fn` with activities pinned to it, release it. The
 * release runs even when the workflow is cancelled; if the phone host is gone it gives up
 * after a while, and the host closes the claim itself once it sees this workflow closed.
 */
export async function withDevice<T>(options: WithDeviceOptions, fn: (device: ClaimedDevice) => Promise<T>): Promise<T> {
  const claim = await claimPhone(options.waitForDevice);
  try {
    return await fn({ claim, activities: proxyActivities<DeviceActivities>({ ...(options.activity ?? DEFAULT_ACTIVITY), taskQueue: claim.task_queue }) });
  } finally {
    await CancellationScope.nonCancellable(() => releasePhone(claim));
  }
}

/** Waits for an idle phone for at most `waitForDevice`; a timeout is an ActivityFailure. */
export async function claimPhone(waitForDevice: Duration): Promise<DeviceClaim> {
  const { claimDevice } = proxyActivities<ClaimDeviceActivities>({
    taskQueue: DEVICES_TASK_QUEUE,
    scheduleToCloseTimeout: waitForDevice,
    startToCloseTimeout: '30 seconds',
    // DEVICE_BUSY (a phone that just got claimed) sends the task back for the next idle one
    retry: { initialInterval: '1 second', backoffCoefficient: 1.5, maximumInterval: '5 seconds' },
  });
  return claimDevice();
}

/**
 * Lets the phone go; never throws. It keeps trying for a while, because a workflow that stays
 * open afterwards (a purchase waiting for its operator) would otherwise hold the phone: the host
 * closes orphan claims only once their workflow is closed.
 */
export async function releasePhone(claim: DeviceClaim): Promise<void> {
  const { releaseDevice } = proxyActivities<DeviceActivities>({
    taskQueue: claim.task_queue,
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '10 minutes',
    retry: { maximumAttempts: 20 },
  });
  try {
    await releaseDevice({ claim });
  } catch (err) {
    log.warn('device release failed; the phone host closes the claim when it sees this workflow closed', { deviceId: claim.device_id, error: (err as Error).message });
  }
}
