import type { FinalPanelReading, Observation, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { sameOptions } from '../../../domain/option-key';
import { matchPendingOrder } from '../../../domain/purchase/reconcile';
import { nowUtc } from '../../../domain/time';
import { DeviceError, isDeviceError } from '../../errors';
import type { SubmissionLedger } from '../../ledger/submissions';
import { readPanelState } from '../panel-state';
import { readSubmitControl, type SubmitControl } from './final-panel';
import type { TapGuard } from './guard';
import { readOrderList, type OrderContext } from './orders';
import { readFinal } from './panel-gates';
import type { PurchaseProfile } from './profile';
import type { PurchaseSession } from './purchase-session';
import type { PendingOrder } from '../../../domain/purchase/orders';

/** submitOnce refused before its tap: nothing was tapped. */
export class SubmitRefused extends DeviceError {
  override readonly name: string = 'SubmitRefused';
  constructor(message: string) {
    super('SUBMIT_REFUSED', message);
  }
}

/**
 * The one irreversible step (提交订单的四个前置条件): ledger first, then a
 * read-only re-check of the final panel against what the fence approved, then the durable
 * `irreversible_action_at`, then exactly one tap. Returns when the tap command returned.
 */
export async function submitFinalPanel(
  session: PurchaseSession,
  pp: PurchaseProfile,
  guard: TapGuard,
  ledger: SubmissionLedger,
  input: {
    target: PurchaseTarget;
    submissionId: string;
    expected: FinalPanelReading;
    workflowId: string;
    /** epoch ms after which the tap is refused (inside an activity: past it, Temporal may already have given up on the attempt) */
    tapBy?: number;
  },
): Promise<{ irreversibleAt: string; tappedAt: string }> {
  const { target, expected } = input;
  const refuseIfLate = () => {
    if (input.tapBy !== undefined && Date.now() > input.tapBy)
      throw new SubmitRefused(
        `too little of submitOnce's time is left to tap and report it (deadline ${new Date(input.tapBy).toISOString()}); nothing tapped`,
      );
  };
  refuseIfLate();
  const prior = ledger.get(target.authorizationId);
  if (prior)
    throw new SubmitRefused(
      `authorization ${target.authorizationId} was already submitted (irreversible_action_at ${prior.irreversible_action_at}); a second submit is refused forever`,
    );
  if (!sameOptions(expected.options, target.options) || expected.quantityRead !== target.quantity)
    throw new SubmitRefused('the approved reading does not match the task');
  if (expected.gate2PanelTotalCent === null || expected.gate3SubmitAmountCent === null)
    throw new SubmitRefused('the approved reading has no Gate 2/Gate 3 amounts');

  // Read-only re-verification: one fresh look, no input before it.
  const names = Object.keys(expected.options);
  const values = names.map((n) => expected.options[n] as string);
  let point: SubmitControl['point'];
  try {
    const { screen } = await session.readScreen('the final panel');
    if (screen.kind !== 'sku_panel')
      throw new SubmitRefused(`the phone shows ${screen.kind}, not the final panel; nothing tapped`);
    const st = readPanelState(screen.panel, names, session.profile, values);
    const amount = readFinal(session, pp, st, names, values, target, expected.gate2PanelTotalCent);
    if (amount !== expected.gate3SubmitAmountCent)
      throw new SubmitRefused(
        `the submit amount is ${amount}, the fence approved ${expected.gate3SubmitAmountCent}; nothing tapped`,
      );
    point = readSubmitControl(session.lastDump(), session.profile, pp).point;
  } catch (err) {
    if (err instanceof SubmitRefused) throw err;
    // a page a person must look at (not a phone fault, which stays what it is)
    if (isDeviceError(err) && !err.retryable)
      throw new SubmitRefused(`the final panel changed since the fence (${err.code}: ${err.message}); nothing tapped`);
    throw err;
  }

  // the re-check may have taken most of the time: checked again right before the point of no return
  refuseIfLate();
  const irreversibleAt = ledger.begin({
    authorization_id: target.authorizationId,
    submission_id: input.submissionId,
    task_id: target.taskId,
    workflow_id: input.workflowId,
    expected_json: JSON.stringify(expected),
  });
  guard.permitSubmitTap(point);
  try {
    await session.tapSubmit(point);
  } catch (err) {
    // Whether the tap reached the phone is unknown: recorded, never repeated.
    ledger.markTapped(target.authorizationId, nowUtc(), (err as Error).message);
    throw err;
  }
  const tappedAt = nowUtc();
  ledger.markTapped(target.authorizationId, tappedAt);
  return { irreversibleAt, tappedAt };
}

const CHECKS_AFTER_SUBMIT: readonly string[] = ['CAPTCHA_REQUIRED', 'RISK_FACE', 'RISK_SMS'];

/**
 * Read-only after the tap: what the phone shows (dumps only; loading is re-dumped within the
 * session's bound). The cashier sheet is the pending-payment page; its order number is read
 * from the orders list, opened by intent, when exactly one order there matches this submit —
 * without that one order the workflow reconciles. `onEvidence` photographs only what the
 * evidence rules allow (./evidence.ts): the result screen is skipped when it is the cashier or a
 * payment hand-off.
 */
export async function observeAfterTap(
  session: PurchaseSession,
  pp: PurchaseProfile,
  ctx: { target: PurchaseTarget; expected: FinalPanelReading | null; tappedAt: string | null },
  onEvidence: (kind: 'ORDER_RESULT' | 'ORDER_LIST') => Promise<void>,
): Promise<Observation> {
  let seen: Awaited<ReturnType<PurchaseSession['readScreen']>>;
  try {
    seen = await session.readScreen('the result of the submit', undefined, true);
  } catch {
    await onEvidence('ORDER_RESULT');
    return { outcome: 'unknown', orderNo: null, orderedAtRaw: null };
  }
  await onEvidence('ORDER_RESULT');
  const kind = seen.screen.kind;
  if (kind === 'payment_handoff') return { outcome: 'payment_handoff', orderNo: null, orderedAtRaw: null };
  // a security check after the tap: 待核对 as CAPTCHA_REQUIRED (workflows/purchase/failures.ts); any other page or overlay is read, never tapped
  if (seen.screen.kind === 'stop_page' && CHECKS_AFTER_SUBMIT.includes(seen.screen.code))
    return { outcome: 'captcha', orderNo: null, orderedAtRaw: null };
  if (kind !== 'cashier') return { outcome: 'unknown', orderNo: null, orderedAtRaw: null };

  let orderNo: string | null = null;
  let orderedAtRaw: string | null = null;
  let orderedAt: string | null = null;
  if (ctx.expected && ctx.tappedAt) {
    const orders = await readPendingOrderList(session, pp, orderContext(ctx.target, ctx.expected)).catch(() => null);
    await onEvidence('ORDER_LIST');
    const verdict = orders
      ? matchPendingOrder(orders, {
          goodsId: ctx.target.goodsId,
          options: ctx.expected.options,
          quantity: ctx.target.quantity,
          amountCent: ctx.expected.gate3SubmitAmountCent ?? -1,
          submittedAt: ctx.tappedAt,
        })
      : null;
    if (verdict?.matched) {
      orderNo = verdict.order.orderNo;
      orderedAtRaw = verdict.order.placedAtRaw;
      orderedAt = verdict.order.placedAt;
    }
  }
  return { outcome: 'pending_payment', orderNo, orderedAtRaw, orderedAt };
}

export function orderContext(target: PurchaseTarget, expected: FinalPanelReading | null): OrderContext {
  return {
    goodsId: target.goodsId,
    title: expected?.title ?? null,
    dimensionNames: Object.keys(expected?.options ?? target.options),
  };
}

/** Read-only: the 待付款 list by intent, unpaid orders only. */
export async function readPendingOrderList(
  session: PurchaseSession,
  pp: PurchaseProfile,
  ctx: OrderContext,
): Promise<PendingOrder[]> {
  const { dump } = await session.openPendingOrders();
  return readOrderList(dump, pp, ctx).filter((o) => o.status === pp.text.orderUnpaid);
}
