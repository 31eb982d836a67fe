import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineQuery,
  defineUpdate,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { AdminActivities } from '../activities/admin';
import type { FinalPanelReading, PurchaseTarget } from '../activities/device/purchase-contract';
import type { DeviceClaim } from '../activities/device/types';
import { allGates } from '../domain/purchase/gates';
import { matchPendingOrder } from '../domain/purchase/reconcile';
import type { ReasonCode } from '../domain/purchase/reasons';
import type { PurchaseResult } from '../domain/purchase/schemas';
import type { PurchaseStatus } from '../domain/purchase/status';
import type { OperatorRef, PurchaseState, PurchaseWorkflowInput, ResolveReconciliationInput } from '../domain/purchase/workflow-types';
import { DeviceIdAttr, TaskStatusAttr } from '../domain/search-attributes';
import { claimPhone, releasePhone } from './device-claim';
import { phoneActivities } from './phone';

export const cancelUpdate = defineUpdate<void, [OperatorRef]>('cancel');
export const resetUpdate = defineUpdate<void, [OperatorRef]>('reset');
export const markPaidUpdate = defineUpdate<void, [OperatorRef]>('markPaid');
export const resolveReconciliationUpdate = defineUpdate<void, [OperatorRef & ResolveReconciliationInput]>('resolveReconciliation');
export const stateQuery = defineQuery<PurchaseState>('state');

const admin = proxyActivities<AdminActivities>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 10 } });
// The fence: one try. A timeout or error is "no answer", and no answer means no tap.
const fence = proxyActivities<AdminActivities>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 1 } });

/**
 * One purchase under one authorization (ARCHITECTURE §4.2): wait for a phone, prepare to the
 * final panel through the three gates, get the fence, tap 提交订单 exactly once, observe — and
 * from then on only read. Every state is written to the admin DB by an admin activity; the
 * operator acts through updates whose validators refuse what the state does not allow.
 */
export async function purchase(input: PurchaseWorkflowInput): Promise<PurchaseStatus> {
  const state: PurchaseState = {
    status: 'PENDING',
    step: 'waiting_for_phone',
    deviceId: null,
    reasonCode: null,
    orderNo: null,
    gates: { gate1UnitPriceCent: null, gate2PanelTotalCent: null, gate3SubmitAmountCent: null, quantityRead: null },
    fenced: false,
  };
  let fenceRequested = false;
  let canceledBy: string | null = null;
  let resetBy: string | null = null;
  let paidBy: string | null = null;
  let resolution: (OperatorRef & ResolveReconciliationInput) | null = null;
  const phoneScope = new CancellationScope();
  let released = false;

  const moveTo = async (to: PurchaseStatus, extra: { reasonCode?: ReasonCode | null; detail?: string; actor?: string; orderNo?: string } = {}) => {
    // A cancel accepted meanwhile wins: no later step may move the task on.
    if (canceledBy && to !== 'CANCELED') throw new CanceledByOperator();
    // The workflow's own state moves first: the operator sees the new status as soon as the
    // activity has written it, and an update sent at that moment (mark-paid on 待付款, resolve
    // on 待核对) must find the validator already agreeing, not one workflow task behind.
    state.status = to;
    if (extra.reasonCode !== undefined) state.reasonCode = extra.reasonCode;
    if (extra.orderNo !== undefined) state.orderNo = extra.orderNo;
    await admin.recordPurchaseStatus({
      taskId: input.taskId,
      authorizationId: input.authorizationId,
      to,
      ...(extra.reasonCode !== undefined ? { reasonCode: extra.reasonCode } : {}),
      ...(extra.detail !== undefined ? { detail: extra.detail } : {}),
      ...(extra.actor !== undefined ? { actor: extra.actor } : {}),
      ...(extra.orderNo !== undefined ? { orderNo: extra.orderNo } : {}),
      ...(state.deviceId ? { deviceId: state.deviceId } : {}),
    });
    upsertSearchAttributes([{ key: TaskStatusAttr, value: to }]);
  };

  setHandler(stateQuery, () => state);
  setHandler(
    cancelUpdate,
    async ({ actor }) => {
      canceledBy = actor;
      phoneScope.cancel();
      await moveTo('CANCELED', { reasonCode: 'CANCELED_BY_OPERATOR', actor });
    },
    {
      validator: (_op: OperatorRef) => {
        if (fenceRequested) throw new Error('提交围栏已建立，不能取消：只能核对同一提交');
        if (!['PENDING', 'CLAIMED', 'ORDERING', 'NEEDS_MANUAL'].includes(state.status) || canceledBy) throw new Error(`当前状态（${state.status}）不能取消`);
      },
    },
  );
  setHandler(resetUpdate, async ({ actor }) => void (resetBy = actor), {
    validator: (_op: OperatorRef) => {
      if (state.status !== 'NEEDS_MANUAL' || resetBy) throw new Error(`只有「需人工处理」的任务可以重置为草稿（当前 ${state.status}）`);
    },
  });
  setHandler(markPaidUpdate, async ({ actor }) => void (paidBy = actor), {
    validator: (_op: OperatorRef) => {
      if (state.status !== 'WAITING_PAYMENT' || paidBy) throw new Error(`只有「待付款」的任务可以标记已付款（当前 ${state.status}）`);
    },
  });
  setHandler(resolveReconciliationUpdate, async (r) => void (resolution = r), {
    validator: (r) => {
      if (state.status !== 'RECONCILIATION_REQUIRED' || resolution) throw new Error(`只有「待核对」的任务可以录入核对结果（当前 ${state.status}）`);
      if (r.outcome === 'created' && !r.orderNo) throw new Error('请填写订单号');
    },
  });

  // 2. Wait for a phone until the authorization expires.
  const waitMs = Math.max(0, Date.parse(input.expiresAt) - Date.now());
  let claim: DeviceClaim | null = null;
  try {
    claim = await phoneScope.run(() => claimPhone(Math.max(1_000, waitMs)));
  } catch (err) {
    if (!isCancellation(err) && !isClaimTimeout(err)) throw err;
  }
  if (canceledBy) {
    if (claim) await releasePhone(claim);
    return await endCanceled();
  }
  if (!claim) {
    await moveTo('DRAFT', { reasonCode: 'AUTHORIZATION_EXPIRED' });
    return 'DRAFT';
  }

  state.deviceId = claim.device_id;
  upsertSearchAttributes([{ key: DeviceIdAttr, value: claim.device_id }]);
  const phone = phoneActivities(claim.task_queue);
  const target: PurchaseTarget = { ...input, attemptId: '', quantity: input.quantity };
  try {
    // The attempt first, so its timeline starts with the claim. Purchases started before that
    // order wrote CLAIMED first and must replay that way (docs/versioning.md).
    const beginAttempt = async () => {
      target.attemptId = (await admin.beginPurchaseAttempt({ taskId: input.taskId, authorizationId: input.authorizationId, deviceId: claim.device_id, workflowId: workflowInfo().workflowId })).attemptId;
    };
    if (patched('attempt-before-claimed')) {
      await beginAttempt();
      await moveTo('CLAIMED');
    } else {
      await moveTo('CLAIMED');
      await beginAttempt();
    }
    await moveTo('ORDERING');
    state.step = 'preparing';

    // 3–6. Open, select, Gate 1, quantity, Gate 2, Gate 3 — nothing irreversible.
    let prepared: Awaited<ReturnType<typeof phone.prepare.preparePurchase>>;
    try {
      prepared = await phoneScope.run(() => phone.prepare.preparePurchase({ claim: claim!, target }));
    } catch (err) {
      // The phone failed (retries spent) before the fence: nothing irreversible happened, so
      // this is a stop with a reason like any other, not a failed workflow stuck in ORDERING.
      if (canceledBy) return await endCanceled();
      const code = deviceFailureType(err);
      await admin.recordAttemptProgress({ attemptId: target.attemptId, step: 'stopped', readings: state.gates, failure: { code, detail: describe(err) }, status: 'STOPPED' });
      return await needsManual(prepareFailureReason(code), describe(err));
    }
    const reading = prepared.reading;
    recordReadings(state, reading);
    // A dry run needs the phone only up to the final panel: it lets the phone go before the
    // admin rows are written (up to four activities, each with its workflow task), so the next
    // purchase has it that much sooner (docs/PERFORMANCE.md). Earlier runs released it last.
    if (input.mode === 'dry_run' && patched('dry-run-release-at-final-panel')) await releaseNow();
    if (!prepared.ok) {
      await admin.recordAttemptProgress({ attemptId: target.attemptId, step: 'stopped', readings: state.gates, failure: { code: prepared.reason, detail: prepared.detail, artifactRef: prepared.artifactPath }, status: 'STOPPED' });
      return await needsManual(prepared.reason, prepared.detail);
    }
    const full = reading as FinalPanelReading;
    // The workflow judges the readings itself too: the phone's verdict is not taken on trust.
    const verdict = allGates(full, input.quantity, input.capCent);
    await admin.recordAttemptProgress({ attemptId: target.attemptId, step: 'final_panel', readings: state.gates, confirmedOptions: full.options, goods: { title: full.title, shopName: full.shopName }, status: verdict.pass ? 'RUNNING' : 'STOPPED' });
    if (!verdict.pass) return await needsManual(verdict.reason, verdict.detail);
    if (canceledBy) return await endCanceled();

    if (input.mode === 'dry_run') {
      await admin.recordAttemptProgress({ attemptId: target.attemptId, step: 'dry_run_passed', status: 'PASSED' });
      await admin.savePurchaseResult({ taskId: input.taskId, attemptId: target.attemptId, purchase: purchaseResult(input, full, { submitted: false }) });
      await moveTo('DRY_RUN_PASSED');
      return 'DRY_RUN_PASSED';
    }

    // 7. The fence. From here on, cancel is refused.
    fenceRequested = true;
    state.step = 'fence';
    let decision;
    try {
      decision = await fence.createSubmissionFence({ taskId: input.taskId, authorizationId: input.authorizationId, attemptId: target.attemptId, confirmation: full });
    } catch {
      // No answer, no tap — and submitOnce is never called for this authorization, so a row the
      // fence may have committed is marked as never tapped.
      await admin.abandonUntappedFence({ authorizationId: input.authorizationId });
      return await needsManual('FENCE_UNAVAILABLE', 'the fence gave no answer; nothing was tapped');
    }
    if (!decision.clickPermitted) return await needsManual('FENCE_REFUSED', decision.detail);
    state.fenced = true;

    // 8. submitOnce — one attempt, ever. Any failure is an unknown outcome: reconcile, never retry.
    state.step = 'submit';
    let tappedAt: string | null = null;
    try {
      tappedAt = (await phone.submit.submitOnce({ claim, target, submissionId: decision.submissionId, expected: full })).tappedAt;
      await admin.recordSubmissionTapped({ submissionId: decision.submissionId, tappedAt });
    } catch (err) {
      return await reconcile(decision.submissionId, full, null, 'SUBMIT_NOT_CONFIRMED', describe(err));
    }

    // 9. Observe, read-only.
    state.step = 'observe';
    const seen = await phone.read.observeAfterSubmit({ claim, target, submissionId: decision.submissionId }).catch(() => null);
    if (seen?.outcome === 'pending_payment') {
      await admin.recordSubmissionOutcome({ submissionId: decision.submissionId, status: 'SUBMITTED', orderNo: seen.orderNo });
      await admin.savePurchaseResult({ taskId: input.taskId, attemptId: target.attemptId, purchase: purchaseResult(input, full, { submitted: true, orderNo: seen.orderNo, orderedAtRaw: seen.orderedAtRaw }) });
      await moveTo('WAITING_PAYMENT', { ...(seen.orderNo ? { orderNo: seen.orderNo } : {}) });
    } else {
      const reason: ReasonCode = seen?.outcome === 'payment_handoff' ? 'PAYMENT_HANDOFF' : seen?.outcome === 'captcha' ? 'CAPTCHA_AFTER_SUBMIT' : 'SUBMIT_OUTCOME_UNKNOWN';
      return await reconcile(decision.submissionId, full, tappedAt, reason, seen ? `observed ${seen.outcome}` : 'observation failed');
    }
  } catch (err) {
    if (err instanceof CanceledByOperator) return await endCanceled();
    throw err;
  } finally {
    await releaseNow();
  }
  return await waitForPayment();

  // ——— the endings, each waiting for the operator's safe next step ———

  async function needsManual(reason: ReasonCode, detail: string): Promise<PurchaseStatus> {
    if (canceledBy) return await endCanceled();
    await moveTo('NEEDS_MANUAL', { reasonCode: reason, detail });
    await releaseNow();
    await condition(() => resetBy !== null || canceledBy !== null);
    if (canceledBy) return await endCanceled();
    await moveTo('DRAFT', { actor: resetBy!, reasonCode: null });
    return 'DRAFT';
  }

  async function reconcile(submissionId: string, full: FinalPanelReading, tappedAt: string | null, reason: ReasonCode, detail: string): Promise<PurchaseStatus> {
    await admin.recordSubmissionOutcome({ submissionId, status: 'RECONCILIATION_REQUIRED' });
    await moveTo('RECONCILIATION_REQUIRED', { reasonCode: reason, detail });
    // 10. Read-only reconciliation against the orders list.
    state.step = 'reconcile';
    const at = tappedAt ?? new Date(Date.now()).toISOString().slice(0, 19) + 'Z';
    const listed = await phoneActivities(claim!.task_queue).read.readPendingOrders({ claim: claim!, target }).catch(() => null);
    const verdict = listed ? matchPendingOrder(listed.orders, { goodsId: input.goodsId, options: full.options, quantity: input.quantity, amountCent: full.gate3SubmitAmountCent!, submittedAt: at }) : null;
    await releaseNow();
    if (verdict?.matched) {
      await admin.recordSubmissionOutcome({ submissionId, status: 'SUBMITTED', orderNo: verdict.order.orderNo });
      await admin.savePurchaseResult({ taskId: input.taskId, attemptId: target.attemptId, purchase: purchaseResult(input, full, { submitted: true, orderNo: verdict.order.orderNo, orderedAtRaw: verdict.order.placedAtRaw, orderedAt: verdict.order.placedAt }) });
      await moveTo('WAITING_PAYMENT', { orderNo: verdict.order.orderNo });
      return await waitForPayment();
    }
    await condition(() => resolution !== null);
    const r = resolution!;
    await admin.recordSubmissionOutcome({ submissionId, status: 'MANUAL_RESOLVED', orderNo: r.outcome === 'created' ? r.orderNo : null });
    if (r.outcome === 'not_created') {
      await moveTo('FAILED', { actor: r.actor });
      return 'FAILED';
    }
    await moveTo('WAITING_PAYMENT', { actor: r.actor, orderNo: r.orderNo });
    return await waitForPayment();
  }

  /** The cancel update writes CANCELED itself; the workflow must not close before it has. */
  async function endCanceled(): Promise<PurchaseStatus> {
    await condition(allHandlersFinished);
    return 'CANCELED';
  }

  async function waitForPayment(): Promise<PurchaseStatus> {
    await releaseNow();
    await condition(() => paidBy !== null);
    await moveTo('SUCCEEDED', { actor: paidBy! });
    return 'SUCCEEDED';
  }

  async function releaseNow(): Promise<void> {
    if (claim && !released) {
      released = true;
      await CancellationScope.nonCancellable(() => releasePhone(claim!));
    }
  }
}

class CanceledByOperator extends Error {}

function recordReadings(state: PurchaseState, r: Partial<FinalPanelReading>): void {
  state.gates = {
    gate1UnitPriceCent: r.gate1UnitPriceCent ?? null,
    gate2PanelTotalCent: r.gate2PanelTotalCent ?? null,
    gate3SubmitAmountCent: r.gate3SubmitAmountCent ?? null,
    quantityRead: r.quantityRead ?? null,
  };
}

function deviceFailureType(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure && cause.type ? cause.type : 'DEVICE_ERROR';
}

/** A device failure code as the operator's reason; anything without its own reason is DEVICE_ERROR. */
function prepareFailureReason(code: string): ReasonCode {
  switch (code) {
    case 'APP_VERSION_UNSUPPORTED':
    case 'GOODS_DELISTED':
    case 'PAGE_UNRECOGNIZED':
      return code;
    case 'CAPTCHA_REQUIRED':
      return 'CAPTCHA';
    case 'PAGE_STRUCTURE_CHANGED':
      return 'PAGE_UNRECOGNIZED';
    default:
      return 'DEVICE_ERROR';
  }
}

function isClaimTimeout(err: unknown): boolean {
  return err instanceof ActivityFailure;
}

function describe(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  if (err instanceof ApplicationFailure) return err.message;
  return err instanceof Error ? err.message : String(err);
}

function purchaseResult(
  input: PurchaseWorkflowInput,
  full: FinalPanelReading,
  outcome: { submitted: boolean; orderNo?: string | null; orderedAtRaw?: string | null; orderedAt?: string | null },
): PurchaseResult {
  return {
    mode: input.mode,
    requested: { options: input.options, quantity: input.quantity, max_price_cent: input.capCent },
    confirmed: { options: full.options, quantity: full.quantityRead ?? input.quantity, unit_price_cent: full.gate1UnitPriceCent, total_price_cent: full.gate3SubmitAmountCent },
    confirmation_reached: true,
    order_submitted: outcome.submitted,
    payment_attempted: false,
    payment_status: outcome.submitted && outcome.orderNo ? 'unpaid' : null,
    order_no: outcome.orderNo ?? null,
    ordered_at: outcome.orderedAt ?? null,
    ordered_at_raw: outcome.orderedAtRaw ?? null,
    match_status: !outcome.submitted ? 'not_submitted' : outcome.orderNo ? 'matched' : 'pending',
  };
}
