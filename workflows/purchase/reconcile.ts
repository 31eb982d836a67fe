import { deprecatePatch } from '@temporalio/workflow';
import type { FinalPanelReading } from '../../domain/contracts/device-activities';
import type { PendingOrder } from '../../domain/purchase/orders';
import type { ReasonCode } from '../../domain/purchase/reasons';
import type { StopFacts } from '../../domain/purchase/stop-facts';
import { matchPendingOrder } from '../../domain/purchase/reconcile';
import type { PurchaseStatus } from '../../domain/purchase/status';
import { phoneActivities } from '../phone';
import { waitForPayment } from './endings';
import { release } from './phone';
import { purchaseResult } from './result';
import type { PurchaseRun } from './run';

/**
 * Step 10. The tap may have created an order: read-only reconcile against the orders list, and
 * when exactly one order matches it is the one; otherwise the operator resolves.
 */
export async function reconcile(
  run: PurchaseRun,
  submissionId: string,
  reading: FinalPanelReading,
  tappedAt: string | null,
  reason: ReasonCode,
  detail: string,
  facts: StopFacts | null = null,
): Promise<PurchaseStatus> {
  const { input, state } = run;
  const claim = run.claim!;
  run.reconciling = { submissionId, decided: false };
  await run.settled(() => run.adminApi().recordSubmissionOutcome({ submissionId, status: 'RECONCILIATION_REQUIRED' }));
  await run.settled(() =>
    run.moveTo('RECONCILIATION_REQUIRED', { reasonCode: reason, detail, ...(facts ? { facts } : {}) }),
  );
  state.step = 'reconcile';
  const now = new Date(Date.now()).toISOString().slice(0, 19) + 'Z';
  const listed = await phoneActivities(claim.task_queue)
    .read.readPendingOrders({ claim, target: run.target! })
    .catch(() => null);
  // The tap time unknown, the window is centred on the ledger's irreversible_action_at — written
  // just before the tap — not on this moment (docs/versioning.md, `reconcile-window-from-ledger`).
  const ledgerAt = tappedAt === null ? listed?.irreversibleActionAt : null;
  let at = tappedAt ?? now;
  if (ledgerAt) {
    deprecatePatch('reconcile-window-from-ledger');
    at = ledgerAt;
  }
  const verdict = listed
    ? matchPendingOrder(listed.orders, {
        goodsId: input.goodsId,
        options: reading.options,
        quantity: input.quantity,
        amountCent: reading.gate3SubmitAmountCent!,
        submittedAt: at,
      })
    : null;
  await release(run);
  if (verdict?.matched) {
    if (await recordMatched(run, submissionId, reading, verdict.order)) {
      run.reconciling.decided = true;
      return await waitForPayment(run);
    }
    state.status = 'RECONCILIATION_REQUIRED';
  }
  run.reconciling.decided = true;
  return await operatorResolves(run, submissionId);
}

/** The one matching order is the submission's: 待付款 with its order number. False when it could not be written. */
async function recordMatched(
  run: PurchaseRun,
  submissionId: string,
  reading: FinalPanelReading,
  order: PendingOrder,
): Promise<boolean> {
  const { input } = run;
  return await run.settled(async () => {
    await run.adminApi().recordSubmissionOutcome({
      submissionId,
      status: 'SUBMITTED',
      orderNo: order.orderNo,
      ...(order.placedAt ? { orderedAt: order.placedAt } : {}),
    });
    await run.adminApi().savePurchaseResult({
      taskId: input.taskId,
      attemptId: run.target!.attemptId,
      purchase: purchaseResult(input, reading, {
        submitted: true,
        orderNo: order.orderNo,
        orderedAtRaw: order.placedAtRaw,
        orderedAt: order.placedAt,
      }),
    });
    await run.moveTo('WAITING_PAYMENT', { orderNo: order.orderNo });
  });
}

/** The operator's answer (录入核对结果); one that could not be written is asked for again. */
async function operatorResolves(run: PurchaseRun, submissionId: string): Promise<PurchaseStatus> {
  for (;;) {
    if (!(await run.operatorWait(() => run.resolution !== null))) return await run.closeUnanswered();
    if (run.written.resolvedTo) return run.written.resolvedTo === 'FAILED' ? 'FAILED' : await waitForPayment(run);
    const r = run.resolution!;
    const who = { actor: r.actor, ...(r.requestId ? { requestId: r.requestId } : {}) };
    let ending: PurchaseStatus = 'FAILED';
    const written = await run.settled(async () => {
      await run.adminApi().recordSubmissionOutcome({
        submissionId,
        status: 'MANUAL_RESOLVED',
        orderNo: r.outcome === 'created' ? r.orderNo : null,
      });
      if (r.outcome === 'not_created') {
        await run.moveTo('FAILED', who);
        return;
      }
      await run.moveTo('WAITING_PAYMENT', { ...who, orderNo: r.orderNo });
      ending = 'WAITING_PAYMENT';
    });
    if (written) return ending === 'FAILED' ? 'FAILED' : await waitForPayment(run);
    run.resolution = null;
    run.state.status = 'RECONCILIATION_REQUIRED';
  }
}
