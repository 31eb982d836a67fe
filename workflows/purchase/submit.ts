import { ActivityFailure, deprecatePatch, TimeoutFailure } from '@temporalio/workflow';
import type {
  DeviceClaim,
  FinalPanelReading,
  Observation,
  PurchaseTarget,
} from '../../domain/contracts/device-activities';
import type { ReasonCode } from '../../domain/purchase/reasons';
import type { StopFacts } from '../../domain/purchase/stop-facts';
import type { PurchaseStatus } from '../../domain/purchase/status';
import { describeFailure } from '../activity-failure';
import { phoneActivities } from '../phone';
import { fenceActivity } from './activities';
import { needsManual } from './endings';
import type { Step } from './failures';
import { purchaseResult } from './result';
import type { PurchaseRun } from './run';

/** Step 7, the fence. From here on, cancel is refused. */
export async function fence(
  run: PurchaseRun,
  target: PurchaseTarget,
  reading: FinalPanelReading,
): Promise<Step<{ submissionId: string }>> {
  const { input, state } = run;
  run.fenceRequested = true;
  state.step = 'fence';
  let decision;
  try {
    decision = await fenceActivity.createSubmissionFence({
      taskId: input.taskId,
      authorizationId: input.authorizationId,
      attemptId: target.attemptId,
      confirmation: reading,
    });
  } catch {
    // No answer, no tap — and submitOnce is never called for this authorization, so a row the
    // fence may have committed is marked as never tapped.
    await run.adminApi().abandonUntappedFence({ authorizationId: input.authorizationId });
    return { ok: false, reason: 'FENCE_UNAVAILABLE', detail: 'the fence gave no answer; nothing was tapped' };
  }
  if (!decision.clickPermitted)
    return {
      ok: false,
      reason: refusalReason(decision.reason),
      detail: decision.detail,
      ...(decision.facts ? { facts: decision.facts } : {}),
    };
  state.fenced = true;
  run.submitted = { submissionId: decision.submissionId, reading, tappedAt: null };
  return { ok: true, submissionId: decision.submissionId };
}

/**
 * The reason a refused fence stops with: a revoked device and a PDD app version nobody released
 * keep their own code, so the workflow's state says what the task row says (docs/versioning.md,
 * `fence-names-release-gate`).
 */
function refusalReason(reason: string): ReasonCode {
  if (reason === 'DEVICE_REVOKED') return 'DEVICE_REVOKED';
  if (reason === 'APP_VERSION_NOT_RELEASED') {
    deprecatePatch('fence-names-release-gate');
    return 'APP_VERSION_NOT_RELEASED';
  }
  return 'FENCE_REFUSED';
}

/**
 * Step 8, submitOnce — one attempt, ever. Any failure is an unknown outcome: reconcile, never
 * retry — except that no phone host took it within its schedule-to-start timeout: then it never ran.
 */
export async function tapOnce(
  run: PurchaseRun,
  claim: DeviceClaim,
  target: PurchaseTarget,
  submissionId: string,
  expected: FinalPanelReading,
): Promise<
  { ok: true; tappedAt: string } | { ok: false; neverStarted: boolean; detail: string; facts: StopFacts | null }
> {
  run.state.step = 'submit';
  let tappedAt: string;
  try {
    tappedAt = (await phoneActivities(claim.task_queue).submit.submitOnce({ claim, target, submissionId, expected }))
      .tappedAt;
  } catch (err) {
    const neverStarted =
      err instanceof ActivityFailure &&
      err.cause instanceof TimeoutFailure &&
      err.cause.timeoutType === 'SCHEDULE_TO_START';
    const failed = describeFailure(err);
    return { ok: false, neverStarted, detail: failed.message, facts: failed.stopFacts };
  }
  if (run.submitted) run.submitted.tappedAt = tappedAt;
  // the tap happened whether or not its time is recorded
  await run.settled(() => run.adminApi().recordSubmissionTapped({ submissionId, tappedAt }));
  return { ok: true, tappedAt };
}

/** The fence said yes but submitOnce never started: nothing was tapped, so a person looks at the phone. */
export async function untappedAfterFence(run: PurchaseRun, detail: string): Promise<PurchaseStatus> {
  await run.adminApi().abandonUntappedFence({ authorizationId: run.input.authorizationId });
  return needsManual(run, 'DEVICE_ERROR', `submitOnce never started on the phone (${detail}); nothing was tapped`);
}

/** Step 9, read-only: what the phone shows after the tap; null when it could not tell. */
export async function observe(
  run: PurchaseRun,
  claim: DeviceClaim,
  target: PurchaseTarget,
  submissionId: string,
): Promise<Observation | null> {
  run.state.step = 'observe';
  return phoneActivities(claim.task_queue)
    .read.observeAfterSubmit({ claim, target, submissionId })
    .catch(() => null);
}

/** Step 9's good end: the cashier and the one matching order → 待付款. */
export async function recordPendingPayment(
  run: PurchaseRun,
  submissionId: string,
  target: PurchaseTarget,
  reading: FinalPanelReading,
  seen: Observation,
): Promise<void> {
  await run.adminApi().recordSubmissionOutcome({
    submissionId,
    status: 'SUBMITTED',
    orderNo: seen.orderNo,
    ...(seen.orderedAt ? { orderedAt: seen.orderedAt } : {}),
  });
  await run.adminApi().savePurchaseResult({
    taskId: run.input.taskId,
    attemptId: target.attemptId,
    purchase: purchaseResult(run.input, reading, {
      submitted: true,
      orderNo: seen.orderNo,
      orderedAtRaw: seen.orderedAtRaw,
      orderedAt: seen.orderedAt ?? null,
    }),
  });
  await run.moveTo('WAITING_PAYMENT', { ...(seen.orderNo ? { orderNo: seen.orderNo } : {}) });
}
