import type { ReasonCode } from '../../domain/purchase/reasons';
import type { PurchaseStatus } from '../../domain/purchase/status';
import type { StopFacts } from '../../domain/purchase/stop-facts';
import { release } from './phone';
import type { PurchaseRun } from './run';

// ——— the endings, each waiting for the operator's safe next step ———

/** Step 2 without a phone: a write that fails for good leaves the task to the admin's repair of a closed workflow. */
export async function expire(run: PurchaseRun): Promise<PurchaseStatus> {
  await run.settled(() => run.moveTo('DRAFT', { reasonCode: 'AUTHORIZATION_EXPIRED' }));
  return 'DRAFT';
}

/** Stopped before the fence, nothing ordered: the operator resets to DRAFT or cancels. */
export async function needsManual(
  run: PurchaseRun,
  reason: ReasonCode,
  detail: string,
  facts?: StopFacts | null,
): Promise<PurchaseStatus> {
  run.throwIfCanceled();
  await run.settled(() => run.moveTo('NEEDS_MANUAL', { reasonCode: reason, detail, ...(facts ? { facts } : {}) }));
  await release(run);
  if (!(await run.operatorWait(() => run.resetBy !== null || run.canceledBy !== null)))
    return await run.closeUnanswered();
  run.throwIfCanceled();
  if (run.written.reset) return 'DRAFT';
  const by = run.resetBy!;
  if (
    await run.settled(() =>
      run.moveTo('DRAFT', {
        actor: by.actor,
        ...(by.requestId ? { requestId: by.requestId } : {}),
        reasonCode: null,
      }),
    )
  )
    return 'DRAFT';
  // nothing was tapped: the admin's repair of a closed workflow takes the task from here
  return 'NEEDS_MANUAL';
}

/** Step 11: an unpaid order exists, a person pays in the PDD app and marks it paid. */
export async function waitForPayment(run: PurchaseRun): Promise<PurchaseStatus> {
  await release(run);
  // a 标记已付款 that could not be written is asked for again
  for (;;) {
    if (!(await run.operatorWait(() => run.paidBy !== null))) return await run.closeUnanswered();
    if (run.written.paid) return 'SUCCEEDED';
    const by = run.paidBy!;
    if (
      await run.settled(() =>
        run.moveTo('SUCCEEDED', { actor: by.actor, ...(by.requestId ? { requestId: by.requestId } : {}) }),
      )
    )
      return 'SUCCEEDED';
    run.paidBy = null;
    run.state.status = 'WAITING_PAYMENT';
  }
}
