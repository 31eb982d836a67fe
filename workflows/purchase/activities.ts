import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { AdminActivities } from '../../activities/admin';

// Every admin activity is idempotent (activities/admin/purchase/), so an outage of the admin
// or its DB is waited out however long it lasts, at most a minute between tries; only an error
// no retry can heal comes back, and the workflow turns that into a stop, never a Failed run.
export const admin = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
// While a phone is held an admin outage is not waited out: after this the step's error is
// lasting, so the purchase stops (NEEDS_MANUAL before the fence, 待核对 after) and lets the phone
// go. Purchases from before took `admin` throughout and replay that way
// (docs/versioning.md, `admin-deadline-while-held`).
const WHILE_HELD = {
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '3 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
export const heldAdmin = proxyActivities<AdminActivities>(WHILE_HELD);
// The write that begins the held phone's purchase (the attempt, CLAIMED, ORDERING) runs inside the
// workflow task that took the claim: no activity task to hand over and no workflow task to wait
// for after it, two round trips fewer while the phone waits. Same deadline as `heldAdmin`.
// Purchases from before scheduled it as an activity and replay that way (docs/versioning.md,
// `held-progress-local`).
export const heldLocalAdmin = proxyLocalActivities<AdminActivities>(WHILE_HELD);
// The write behind an operator's update runs inside it: an outage longer than this fails the
// update with its reason, and the operator asks again (docs/versioning.md, `operator-writes-in-update`).
export const operatorAdmin = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
export type AdminApi = typeof admin;
// The fence: one try. A timeout or error is "no answer", and no answer means no tap.
export const fenceActivity = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 1 },
  summary: '提交围栏（一次授权只有一次）',
});
