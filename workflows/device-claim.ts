import type { Duration } from '@temporalio/common';
import {
  CancellationScope,
  deprecatePatch,
  log,
  proxyActivities,
  setHandler,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { ClaimDeviceActivities, DeviceActivities, DeviceClaim } from '../domain/contracts/device-activities';
import { DEVICES_TASK_QUEUE } from '../domain/task-queues';
import { DEVICE_HEARTBEAT_TIMEOUT } from './phone';
import { holdsClaimQuery } from '../domain/contracts/purchase-messages';

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
  // a host that dies in the middle of a read is noticed within this (workflows/phone.ts)
  heartbeatTimeout: DEVICE_HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '3 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
};

/**
 * Claim a phone, run `fn` with activities pinned to it, release it. The release runs even
 * when the workflow is cancelled and is retried until the phone host takes it.
 */
export async function withDevice<T>(options: WithDeviceOptions, fn: (device: ClaimedDevice) => Promise<T>): Promise<T> {
  let claim: DeviceClaim | null = null;
  let released = false;
  answerHoldsClaim(() => (released ? null : claim));
  claim = await claimPhone(options.waitForDevice);
  const held = claim;
  try {
    return await fn({
      claim: held,
      activities: proxyActivities<DeviceActivities>({
        ...(options.activity ?? DEFAULT_ACTIVITY),
        taskQueue: held.task_queue,
      }),
    });
  } finally {
    released = true;
    await CancellationScope.nonCancellable(() => releasePhone(held));
  }
}

/**
 * Answers the phone host's orphan check (device-worker/runtime/claim-checks.ts): does this
 * workflow still hold claim `claimId`? `held` is the claim the workflow has and has not started
 * to release. A claim the host recorded but whose reply never reached the workflow is not it.
 */
export function answerHoldsClaim(held: () => DeviceClaim | null): void {
  setHandler(holdsClaimQuery, (claimId: string) => held()?.claim_id === claimId);
}

/** Waits for an idle phone for at most `waitForDevice`; a timeout is an ActivityFailure. */
export async function claimPhone(waitForDevice: Duration): Promise<DeviceClaim> {
  const { claimDevice } = proxyActivities<ClaimDeviceActivities>({
    taskQueue: DEVICES_TASK_QUEUE,
    scheduleToCloseTimeout: waitForDevice,
    startToCloseTimeout: CLAIM_START_TO_CLOSE,
    summary: '等待空闲手机',
    // DEVICE_BUSY (a phone that just got claimed) sends the task back for the next idle one
    retry: { initialInterval: '1 second', backoffCoefficient: 1.5, maximumInterval: '5 seconds' },
  });
  return claimDevice();
}

/**
 * After this a claim's reply can no longer reach its workflow (Temporal refuses a completion
 * that comes after the start-to-close timeout); the phone host's orphan check waits at least
 * this long before it asks the workflow about a claim.
 */
const CLAIM_START_TO_CLOSE = '30 seconds';

/**
 * How long a release is tried before it is given up. A phone host that is gone for good would
 * otherwise be asked forever, and the workflow waits for its release before it closes; a claim
 * left behind by a release given up is freed by the host's orphan check once the workflow is
 * closed or has stopped holding it (device-worker/runtime/claim-checks.ts).
 */
const RELEASE_DEADLINE = '10 minutes';

/**
 * Lets the phone go; never throws. It is retried, with the wait between tries capped so a phone
 * host that comes back is released within a minute, until RELEASE_DEADLINE; a refusal (the host
 * has no such claim for this workflow: nothing to release) ends it early (docs/versioning.md,
 * `release-deadline`).
 */
export async function releasePhone(claim: DeviceClaim): Promise<void> {
  deprecatePatch('release-deadline');
  const { releaseDevice } = proxyActivities<DeviceActivities>({
    taskQueue: claim.task_queue,
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: RELEASE_DEADLINE,
    summary: '释放手机',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });
  try {
    await releaseDevice({ claim });
  } catch (err) {
    log.warn('device release refused or given up; the phone host frees an orphan claim itself', {
      deviceId: claim.device_id,
      error: (err as Error).message,
    });
  }
}
