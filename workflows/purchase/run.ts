import {
  allHandlersFinished,
  CancellationScope,
  condition,
  deprecatePatch,
  log,
  setCurrentDetails,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { DeviceClaim, FinalPanelReading, PurchaseTarget } from '../../domain/contracts/device-activities';
import type { ReasonCode } from '../../domain/purchase/reasons';
import { STATUS_ZH, type PurchaseStatus } from '../../domain/purchase/status';
import type { StopFacts } from '../../domain/purchase/stop-facts';
import {
  OPERATOR_WAIT_DAYS_DEFAULT,
  type OperatorRef,
  type PurchaseState,
  type PurchaseWorkflowInput,
  type ResolveReconciliationInput,
} from '../../domain/purchase/workflow-types';
import { TaskStatusAttr } from '../../domain/search-attributes';
import { admin, heldAdmin, type AdminApi } from './activities';
import { CanceledByOperator, describe, isLasting } from './failures';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What one purchase knows while it runs: its state (what the `state` query answers), the phone it
 * holds, what the operator asked for, and the one place a state is recorded (`moveTo`). The steps
 * (./index.ts), the operator's updates (./operator.ts), the endings and the reconciliation work on it.
 */
export class PurchaseRun {
  readonly state: PurchaseState = {
    status: 'PENDING',
    step: 'waiting_for_phone',
    deviceId: null,
    reasonCode: null,
    orderNo: null,
    gates: { gate1UnitPriceCent: null, gate2PanelTotalCent: null, gate3SubmitAmountCent: null, quantityRead: null },
    fenced: false,
  };
  fenceRequested = false;
  canceledBy: string | null = null;
  resetBy: OperatorRef | null = null;
  paidBy: OperatorRef | null = null;
  resolution: (OperatorRef & ResolveReconciliationInput) | null = null;
  /** what the operator's cancel interrupts: waiting for a phone and preparing on it */
  readonly phoneScope = new CancellationScope();
  claim: DeviceClaim | null = null;
  released = false;
  /** the release running beside the rest of the workflow, awaited before it closes */
  releasing: Promise<void> | null = null;
  /** set once the attempt exists: what every phone step works on */
  target: PurchaseTarget | null = null;
  /** set once the fence said yes: what a lasting error afterwards reconciles */
  submitted: { submissionId: string; reading: FinalPanelReading; tappedAt: string | null } | null = null;
  /** an operator's update is writing its change: every other operator request waits its turn */
  operatorBusy = false;
  /** set by an update that wrote the operator's change itself; the step waiting for it only ends */
  written: { reset: boolean; paid: boolean; resolvedTo: PurchaseStatus | null } = {
    reset: false,
    paid: false,
    resolvedTo: null,
  };
  /** the submission being reconciled, and whether the workflow's own order check has decided */
  reconciling: { submissionId: string; decided: boolean } | null = null;

  constructor(readonly input: PurchaseWorkflowInput) {}

  canceled(): boolean {
    return this.canceledBy !== null;
  }

  throwIfCanceled(): void {
    if (this.canceledBy) throw new CanceledByOperator();
  }

  refuseWhileBusy(): void {
    if (this.operatorBusy) throw new Error('另一个操作正在处理，请稍后刷新再试');
  }

  // ——— progress: the one place a state is recorded ———

  async moveTo(
    to: PurchaseStatus,
    extra: {
      reasonCode?: ReasonCode | null;
      detail?: string;
      actor?: string;
      requestId?: string;
      orderNo?: string;
      /** what the stop was, as data: the admin keeps it with the stop for the operator's sentence */
      facts?: StopFacts;
    } = {},
    via: AdminApi = this.adminApi(),
  ): Promise<void> {
    if (to !== 'CANCELED') this.throwIfCanceled();
    // The workflow's own state moves first: the operator sees the new status as soon as the
    // activity has written it, and an update sent at that moment (mark-paid on 待付款, resolve
    // on 待核对) must find the validator already agreeing, not one workflow task behind.
    const { state, input } = this;
    state.status = to;
    if (extra.reasonCode !== undefined) state.reasonCode = extra.reasonCode;
    if (extra.orderNo !== undefined) state.orderNo = extra.orderNo;
    await via.recordPurchaseStatus({
      taskId: input.taskId,
      authorizationId: input.authorizationId,
      to,
      ...(extra.reasonCode !== undefined ? { reasonCode: extra.reasonCode } : {}),
      ...(extra.detail !== undefined ? { detail: extra.detail } : {}),
      ...(extra.actor !== undefined ? { actor: extra.actor } : {}),
      ...(extra.requestId !== undefined ? { requestId: extra.requestId } : {}),
      ...(extra.orderNo !== undefined ? { orderNo: extra.orderNo } : {}),
      ...(extra.facts !== undefined ? { facts: extra.facts } : {}),
      ...(state.deviceId ? { deviceId: state.deviceId } : {}),
    });
    upsertSearchAttributes([{ key: TaskStatusAttr, value: to }]);
    this.showDetails(extra.detail);
  }

  /**
   * What the Temporal Web UI shows as this run's current details: the state in the operator's
   * words, why, on which phone, which order — so an engineer reading the list needs no query.
   */
  showDetails(detail?: string): void {
    const { state } = this;
    setCurrentDetails(
      [
        `**${STATUS_ZH[state.status]}** (${state.status})`,
        state.reasonCode ? `原因 ${state.reasonCode}` : null,
        state.deviceId ? `手机 ${state.deviceId}` : null,
        state.orderNo ? `订单 ${state.orderNo}` : null,
        detail ?? null,
      ]
        .filter(Boolean)
        .join(' · '),
    );
  }

  /** The admin activities as the moment allows: with a deadline while a phone is held. */
  adminApi(): AdminApi {
    if (!this.claim || this.released) return admin;
    deprecatePatch('admin-deadline-while-held');
    return heldAdmin;
  }

  /**
   * Runs an admin write whose lasting failure must not end the workflow (the write of an ending,
   * of the operator's answer): false when it failed for good, which is logged. The workflow's own
   * state has already moved, so the operator still sees and gets the next step it offers.
   */
  async settled(write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (err) {
      if (!isLasting(err)) throw err;
      log.error('an admin write failed for good; the purchase waits for the operator', {
        taskId: this.input.taskId,
        error: describe(err),
      });
      return false;
    }
  }

  recordReadings(r: Partial<FinalPanelReading>): void {
    this.state.gates = {
      gate1UnitPriceCent: r.gate1UnitPriceCent ?? null,
      gate2PanelTotalCent: r.gate2PanelTotalCent ?? null,
      gate3SubmitAmountCent: r.gate3SubmitAmountCent ?? null,
      quantityRead: r.quantityRead ?? null,
    };
  }

  // ——— waiting for the operator ———

  /**
   * Waits for the operator — at most the operator wait (30 days unless the admin says otherwise):
   * false when nobody answered (docs/versioning.md, `operator-wait-ends`).
   */
  async operatorWait(answered: () => boolean): Promise<boolean> {
    deprecatePatch('operator-wait-ends');
    const days = this.input.operatorWaitDays ?? OPERATOR_WAIT_DAYS_DEFAULT;
    if (await condition(answered, days * DAY_MS)) return true;
    // an operator's write under way finishes first: its answer counts
    await condition(() => !this.operatorBusy);
    return answered();
  }

  /**
   * Nobody answered within the operator wait: the workflow closes and the task keeps its state
   * (需人工处理, 待核对, 待付款), which the admin's repair of a closed workflow settles with the
   * operator's answer (admin/purchase/repair.ts). The phone was let go before the wait.
   */
  async closeUnanswered(): Promise<PurchaseStatus> {
    await condition(allHandlersFinished);
    log.warn('no operator answer within the operator wait: the workflow closes, the admin repairs the task', {
      taskId: this.input.taskId,
      status: this.state.status,
    });
    return this.state.status;
  }

  /** The cancel update writes CANCELED itself; the workflow must not close before it has. */
  async endCanceled(): Promise<PurchaseStatus> {
    await condition(allHandlersFinished);
    return 'CANCELED';
  }
}
