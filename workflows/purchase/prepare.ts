import { deprecatePatch, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type {
  DeviceClaim,
  FinalPanelReading,
  PreparedPurchase,
  PurchaseTarget,
} from '../../domain/contracts/device-activities';
import { reasonForDeviceFailure } from '../../domain/purchase/failures';
import { allGates } from '../../domain/purchase/gates';
import type { PurchaseStatus } from '../../domain/purchase/status';
import { DeviceIdAttr, DeviceNameAttr, TaskStatusAttr } from '../../domain/search-attributes';
import { phoneActivities } from '../phone';
import { heldLocalAdmin } from './activities';
import { deviceFailure, type RecordedPrepareStop, type Step } from './failures';
import { release } from './phone';
import { purchaseResult } from './result';
import type { PurchaseRun } from './run';

/**
 * Step 2, on the claimed phone: the attempt begun and the task moved through CLAIMED to ORDERING
 * in one admin round trip, a local activity in the workflow task that took the claim — the phone
 * waits for no activity task and no workflow task after it (docs/versioning.md,
 * `held-progress-in-one`, `held-progress-local`).
 */
export async function begin(run: PurchaseRun, claim: DeviceClaim): Promise<PurchaseTarget> {
  const { input, state } = run;
  state.deviceId = claim.device_id;
  upsertSearchAttributes([{ key: DeviceIdAttr, value: claim.device_id }]);
  const target: PurchaseTarget = { ...input, attemptId: '', quantity: input.quantity };
  run.target = target;
  deprecatePatch('held-progress-in-one');
  run.throwIfCanceled();
  // the workflow's own state moves first, as in PurchaseRun.moveTo
  state.status = 'ORDERING';
  deprecatePatch('held-progress-local');
  const begun = await heldLocalAdmin.beginOrdering({
    taskId: input.taskId,
    authorizationId: input.authorizationId,
    deviceId: claim.device_id,
    workflowId: workflowInfo().workflowId,
  });
  target.attemptId = begun.attemptId;
  // the phone's name beside its UUID in the Web UI
  if (begun.deviceName) {
    deprecatePatch('device-name-attribute');
    upsertSearchAttributes([{ key: DeviceNameAttr, value: begun.deviceName }]);
  }
  upsertSearchAttributes([{ key: TaskStatusAttr, value: 'ORDERING' }]);
  run.showDetails();
  state.step = 'preparing';
  return target;
}

/**
 * Steps 3–6: open, select, Gate 1, quantity, Gate 2, Gate 3 on the phone — nothing irreversible —
 * and then the workflow judges the readings itself: the phone's verdict is not taken on trust.
 * A device failure (retries spent, or a stop) is the reason its code names in
 * domain/purchase/failures.ts, not a failed workflow stuck in ORDERING.
 */
export async function prepareThroughGates(
  run: PurchaseRun,
  claim: DeviceClaim,
  target: PurchaseTarget,
): Promise<Step<{ reading: FinalPanelReading }>> {
  const { input } = run;
  let prepared: PreparedPurchase | RecordedPrepareStop;
  try {
    prepared = (await run.phoneScope.run(() =>
      phoneActivities(claim.task_queue).prepare.preparePurchase({ claim, target }),
    )) as PreparedPurchase | RecordedPrepareStop;
  } catch (err) {
    run.throwIfCanceled();
    const failure = deviceFailure(err);
    if (failure.reading) run.recordReadings(failure.reading);
    await recordStop(run, target, {
      code: failure.code,
      detail: failure.detail,
      ...(failure.artifactPath ? { artifactRef: failure.artifactPath } : {}),
    });
    return {
      ok: false,
      reason: reasonForDeviceFailure(failure.code),
      detail: failure.detail,
      ...(failure.facts ? { facts: failure.facts } : {}),
    };
  }
  run.recordReadings(prepared.reading);
  if (!prepared.ok) {
    await recordStop(run, target, {
      code: prepared.reason,
      detail: prepared.detail,
      artifactRef: prepared.artifactPath,
    });
    return prepared;
  }
  // A dry run is done with the phone at the final panel: the next purchase may have it while the
  // admin books this one (docs/versioning.md, `dry-run-releases-at-panel`).
  if (input.mode === 'dry_run') {
    deprecatePatch('dry-run-releases-at-panel');
    await release(run);
  }
  const reading = prepared.reading;
  const verdict = allGates(reading, input.quantity, input.maxTotalPriceCent);
  await run.adminApi().recordAttemptProgress({
    attemptId: target.attemptId,
    step: 'final_panel',
    readings: run.state.gates,
    confirmedOptions: reading.options,
    goods: { title: reading.title, shopName: reading.shopName },
    interstitials: prepared.interstitialsClosed ?? [],
    status: verdict.pass ? 'RUNNING' : 'STOPPED',
  });
  if (!verdict.pass) return { ok: false, reason: verdict.reason, detail: verdict.detail, facts: verdict.facts };
  run.throwIfCanceled();
  return { ok: true, reading };
}

async function recordStop(
  run: PurchaseRun,
  target: PurchaseTarget,
  failure: { code: string; detail: string; artifactRef?: string | null },
): Promise<void> {
  await run.adminApi().recordAttemptProgress({
    attemptId: target.attemptId,
    step: 'stopped',
    readings: run.state.gates,
    failure,
    status: 'STOPPED',
  });
}

/** Step 6 for a `dry_run`: it stops on the final panel, nothing tapped. */
export async function passDryRun(
  run: PurchaseRun,
  target: PurchaseTarget,
  reading: FinalPanelReading,
): Promise<PurchaseStatus> {
  await run.adminApi().recordAttemptProgress({
    attemptId: target.attemptId,
    step: 'dry_run_passed',
    status: 'PASSED',
    // the release gate credits this run to the version read on its own final panel
    appVersion: reading.appVersion,
  });
  await run.adminApi().savePurchaseResult({
    taskId: run.input.taskId,
    attemptId: target.attemptId,
    purchase: purchaseResult(run.input, reading, { submitted: false }),
  });
  await run.moveTo('DRY_RUN_PASSED');
  return 'DRY_RUN_PASSED';
}
