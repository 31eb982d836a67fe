import { deprecatePatch } from '@temporalio/workflow';
import type { PurchaseStatus } from '../../domain/purchase/status';
import type { PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import { upgradePurchaseInput } from '../../migrations/payloads/purchase-input';
import { expire, needsManual, waitForPayment } from './endings';
import { afterSubmitReason, CanceledByOperator, describe, isLasting, reasonForLastingError } from './failures';
import { listenToOperator } from './operator';
import { release, releaseSettled, waitForPhone } from './phone';
import { begin, passDryRun, prepareThroughGates } from './prepare';
import { reconcile } from './reconcile';
import { PurchaseRun } from './run';
import { fence, observe, recordPendingPayment, tapOnce, untappedAfterFence } from './submit';

/**
 * One purchase under one authorization (docs/architecture.md §4.2, sim/phone/SCREENS.md "A
 * purchase, step by step"): wait for a phone, prepare to the final panel through the three gates,
 * get the fence, tap 提交订单 exactly once, observe — and from then on only read. Every state is
 * written to the admin DB by an admin activity (PurchaseRun.moveTo), and the operator acts through
 * updates whose validators ask the state machine (./operator.ts).
 */
export async function purchase(recorded: PurchaseWorkflowInput): Promise<PurchaseStatus> {
  // a purchase started before the cap's rename carries it under its old name; nothing else reads `recorded`
  const input = upgradePurchaseInput(recorded);
  const run = new PurchaseRun(input);
  run.showDetails('等待空闲手机');
  try {
    return await purchaseSteps(run, input);
  } finally {
    // the phone's release runs beside the operator's wait; the workflow closes only after it
    await releaseSettled(run);
  }
}

/** The story, numbered as docs/architecture.md §4.2 numbers it (step 1, authorize, is the admin's). */
async function purchaseSteps(run: PurchaseRun, input: PurchaseWorkflowInput): Promise<PurchaseStatus> {
  listenToOperator(run);

  // 2. Claim a phone, waiting until the authorization expires.
  const claim = await waitForPhone(run);
  if (run.canceled()) {
    await release(run);
    return await run.endCanceled();
  }
  if (!claim) return await expire(run);

  // Before the fence's yes a lasting error is a stop (NEEDS_MANUAL); after it, 待核对 — the
  // workflow waits for the operator either way and never ends Failed.
  try {
    const target = await begin(run, claim);
    // 3–6. Open, select, Gate 1, quantity, Gate 2, Gate 3 on the phone; the workflow re-judges them.
    const panel = await prepareThroughGates(run, claim, target);
    if (!panel.ok) return await needsManual(run, panel.reason, panel.detail, panel.facts);
    if (input.mode === 'dry_run') return await passDryRun(run, target, panel.reading);

    // 7. The fence: from here on cancel is refused, and without its yes nothing is tapped.
    const fenced = await fence(run, target, panel.reading);
    if (!fenced.ok) return await needsManual(run, fenced.reason, fenced.detail, fenced.facts);
    const { submissionId } = fenced;

    // 8. submitOnce: one tap, ever; whatever is unclear after it is reconciled (10), never retried.
    const tap = await tapOnce(run, claim, target, submissionId, panel.reading);
    if (!tap.ok && tap.neverStarted) return await untappedAfterFence(run, tap.detail);
    if (!tap.ok)
      return await reconcile(run, submissionId, panel.reading, null, 'SUBMIT_NOT_CONFIRMED', tap.detail, tap.facts);

    // 9. Observe, read-only.
    const seen = await observe(run, claim, target, submissionId);
    if (seen?.outcome !== 'pending_payment')
      return await reconcile(
        run,
        submissionId,
        panel.reading,
        tap.tappedAt,
        afterSubmitReason(seen),
        seen ? `observed ${seen.outcome}` : 'observation failed',
      );
    // The cashier alone is not success: without the one matching order it is reconciled
    // (docs/versioning.md, `cashier-needs-matched-order`).
    if (!seen.orderNo) {
      deprecatePatch('cashier-needs-matched-order');
      return await reconcile(
        run,
        submissionId,
        panel.reading,
        tap.tappedAt,
        'ORDER_NOT_MATCHED',
        'the cashier showed, but the 待付款 list had no unique matching order',
      );
    }
    await recordPendingPayment(run, submissionId, target, panel.reading, seen);
  } catch (err) {
    if (err instanceof CanceledByOperator) return await run.endCanceled();
    if (!isLasting(err)) throw err;
    // the stop it becomes waits for the operator, whose cancel ends it here too
    return await afterLastingError(run, err).catch(async (stopErr: unknown) => {
      if (stopErr instanceof CanceledByOperator) return await run.endCanceled();
      throw stopErr;
    });
  } finally {
    await release(run);
  }
  // 11. Wait for payment.
  return await waitForPayment(run);
}

/** A lasting error of a step: before the fence's yes a stop with its reason, after it 待核对. */
async function afterLastingError(run: PurchaseRun, err: unknown): Promise<PurchaseStatus> {
  const s = run.submitted;
  if (s) return reconcile(run, s.submissionId, s.reading, s.tappedAt, 'AFTER_FENCE_STEP_FAILED', describe(err));
  return needsManual(run, reasonForLastingError(err), describe(err));
}
