import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  log,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  TimeoutFailure,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { AdminActivities } from '../activities/admin';
import type {
  DeviceClaim,
  FinalPanelReading,
  Observation,
  PreparedPurchase,
  PurchaseTarget,
} from '../domain/contracts/device-activities';
import { reasonForDeviceFailure } from '../domain/purchase/failures';
import { allGates } from '../domain/purchase/gates';
import { matchPendingOrder } from '../domain/purchase/reconcile';
import type { ReasonCode } from '../domain/purchase/reasons';
import type { PurchaseResult } from '../domain/purchase/schemas';
import { allowsAction } from '../domain/purchase/state-machine';
import { STATUS_ZH, type PurchaseStatus } from '../domain/purchase/status';
import {
  OPERATOR_WAIT_DAYS_DEFAULT,
  type OperatorAnswer,
  type OperatorRef,
  type PurchaseState,
  type PurchaseWorkflowInput,
  type ResolveReconciliationInput,
} from '../domain/purchase/workflow-types';
import { DeviceIdAttr, DeviceNameAttr, TaskStatusAttr } from '../domain/search-attributes';
import { describeFailure } from './activity-failure';
import { answerHoldsClaim, claimPhone, releasePhone } from './device-claim';
import { phoneActivities } from './phone';
import {
  cancelUpdate,
  markPaidUpdate,
  resetUpdate,
  resolveReconciliationUpdate,
  stateQuery,
} from './purchase-messages';

// Every admin activity is idempotent (activities/admin/purchase.ts), so an outage of the admin
// or its DB is waited out however long it lasts, at most a minute between tries; only an error
// no retry can heal comes back, and the workflow turns that into a stop, never a Failed run.
const admin = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
// While a phone is held an admin outage is not waited out: after this the step's error is
// lasting, so the purchase stops (NEEDS_MANUAL before the fence, 待核对 after) and lets the phone
// go. Purchases from before took `admin` throughout and replay that way
// (docs/versioning.md, `admin-deadline-while-held`).
const heldAdmin = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '3 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
// The write behind an operator's update runs inside it: an outage longer than this fails the
// update with its reason, and the operator asks again (docs/versioning.md, `operator-writes-in-update`).
const operatorAdmin = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
type AdminApi = typeof admin;
const DAY_MS = 24 * 60 * 60 * 1000;
// The fence: one try. A timeout or error is "no answer", and no answer means no tap.
const fence = proxyActivities<AdminActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 1 },
  summary: '提交围栏（一次授权只有一次）',
});

/**
 * One purchase under one authorization (docs/engineering.md, "The purchase, step by step"):
 * wait for a phone, prepare to the final panel through the three gates, get the fence, tap
 * 提交订单 exactly once, observe — and from then on only read. Each step below is one method of
 * PurchaseRun; every state is written to the admin DB by an admin activity, and the operator acts
 * through updates whose validators ask the state machine.
 */
export async function purchase(input: PurchaseWorkflowInput): Promise<PurchaseStatus> {
  const run = new PurchaseRun(input);
  run.showDetails('等待空闲手机');
  try {
    return await purchaseSteps(run, input);
  } finally {
    // the phone's release runs beside the operator's wait; the workflow closes only after it
    await run.releaseSettled();
  }
}

async function purchaseSteps(run: PurchaseRun, input: PurchaseWorkflowInput): Promise<PurchaseStatus> {
  run.listenToOperator();

  const claim = await run.waitForPhone();
  if (run.canceled()) {
    await run.release();
    return await run.endCanceled();
  }
  if (!claim) return await run.expire();

  // Before the fence's yes a lasting error is a stop (NEEDS_MANUAL); after it, 待核对 — the
  // workflow waits for the operator either way and never ends Failed.
  try {
    const target = await run.begin(claim);
    // Open, select, Gate 1, quantity, Gate 2, Gate 3 on the phone; the workflow re-judges them.
    const panel = await run.prepareThroughGates(claim, target);
    if (!panel.ok) return await run.needsManual(panel.reason, panel.detail);
    if (input.mode === 'dry_run') return await run.passDryRun(target, panel.reading);

    // The fence: from here on cancel is refused, and without its yes nothing is tapped.
    const fenced = await run.fence(target, panel.reading);
    if (!fenced.ok) return await run.needsManual(fenced.reason, fenced.detail);
    const { submissionId } = fenced;

    // One tap, ever; whatever is unclear after it is reconciled, never retried.
    const tap = await run.tapOnce(claim, target, submissionId, panel.reading);
    if (!tap.ok && tap.neverStarted) return await run.untappedAfterFence(tap.detail);
    if (!tap.ok) return await run.reconcile(submissionId, panel.reading, null, 'SUBMIT_NOT_CONFIRMED', tap.detail);

    const seen = await run.observe(claim, target, submissionId);
    if (seen?.outcome !== 'pending_payment')
      return await run.reconcile(
        submissionId,
        panel.reading,
        tap.tappedAt,
        afterSubmitReason(seen),
        seen ? `observed ${seen.outcome}` : 'observation failed',
      );
    // The cashier alone is not success: without the one matching order it is reconciled.
    // Purchases that already went on to 待付款 without it replay that way (docs/versioning.md).
    if (!seen.orderNo && patched('cashier-needs-matched-order')) {
      return await run.reconcile(
        submissionId,
        panel.reading,
        tap.tappedAt,
        'ORDER_NOT_MATCHED',
        'the cashier showed, but the 待付款 list had no unique matching order',
      );
    }
    await run.recordPendingPayment(submissionId, target, panel.reading, seen);
  } catch (err) {
    if (err instanceof CanceledByOperator) return await run.endCanceled();
    if (!isLasting(err)) throw err;
    // the stop it becomes waits for the operator, whose cancel ends it here too
    return await run.afterLastingError(err).catch(async (stopErr: unknown) => {
      if (stopErr instanceof CanceledByOperator) return await run.endCanceled();
      throw stopErr;
    });
  } finally {
    await run.release();
  }
  return await run.waitForPayment();
}

type Step<T> = ({ ok: true } & T) | { ok: false; reason: ReasonCode; detail: string };

/** Histories recorded while a stop came back as a result, not as a failure, still replay. */
interface RecordedPrepareStop {
  ok: false;
  reason: ReasonCode;
  detail: string;
  reading: Partial<FinalPanelReading>;
  artifactPath: string | null;
}

/** Thrown by any step once the operator's cancel was accepted: no later step may move the task on. */
class CanceledByOperator extends Error {}

class PurchaseRun {
  readonly state: PurchaseState = {
    status: 'PENDING',
    step: 'waiting_for_phone',
    deviceId: null,
    reasonCode: null,
    orderNo: null,
    gates: { gate1UnitPriceCent: null, gate2PanelTotalCent: null, gate3SubmitAmountCent: null, quantityRead: null },
    fenced: false,
  };
  private fenceRequested = false;
  private canceledBy: string | null = null;
  private resetBy: OperatorRef | null = null;
  private paidBy: OperatorRef | null = null;
  private resolution: (OperatorRef & ResolveReconciliationInput) | null = null;
  /** what the operator's cancel interrupts: waiting for a phone and preparing on it */
  private readonly phoneScope = new CancellationScope();
  private claim: DeviceClaim | null = null;
  private released = false;
  /** the release running beside the rest of the workflow, awaited before it closes */
  private releasing: Promise<void> | null = null;
  /** set once the attempt exists: what every phone step works on */
  private target: PurchaseTarget | null = null;
  /** set once the fence said yes: what a lasting error afterwards reconciles */
  private submitted: { submissionId: string; reading: FinalPanelReading; tappedAt: string | null } | null = null;
  /** an operator's update is writing its change: every other operator request waits its turn */
  private operatorBusy = false;
  /** set by an update that wrote the operator's change itself; the step waiting for it only ends */
  private written: { reset: boolean; paid: boolean; resolvedTo: PurchaseStatus | null } = {
    reset: false,
    paid: false,
    resolvedTo: null,
  };
  /** the submission being reconciled, and whether the workflow's own order check has decided */
  private reconciling: { submissionId: string; decided: boolean } | null = null;

  constructor(private readonly input: PurchaseWorkflowInput) {}

  // ——— the operator ———

  listenToOperator(): void {
    const { state } = this;
    setHandler(stateQuery, () => state);
    answerHoldsClaim(() => (this.released ? null : this.claim));
    setHandler(
      cancelUpdate,
      async ({ actor, requestId }): Promise<OperatorAnswer> => {
        this.canceledBy = actor;
        this.phoneScope.cancel();
        await this.moveTo('CANCELED', {
          reasonCode: 'CANCELED_BY_OPERATOR',
          actor,
          ...(requestId ? { requestId } : {}),
        });
        return { result: 'applied', status: 'CANCELED' };
      },
      {
        validator: (_op: OperatorRef) => {
          // After the fence only a stop may be canceled: NEEDS_MANUAL after it means the fence
          // refused or submitOnce never started — nothing was tapped (domain/purchase/state-machine.ts).
          if (this.fenceRequested && state.status !== 'NEEDS_MANUAL')
            throw new Error('提交围栏已建立，不能取消：只能核对同一提交');
          // a task back in DRAFT has left this workflow: its cancel is the admin's
          if (state.status === 'DRAFT' || !allowsAction(state.status, 'cancel') || this.canceledBy)
            throw new Error(`当前状态（${state.status}）不能取消`);
          this.refuseWhileBusy();
        },
      },
    );
    setHandler(
      resetUpdate,
      async (op): Promise<OperatorAnswer | null> => {
        if (!patched('operator-writes-in-update')) {
          this.resetBy = op;
          return null;
        }
        const answer = await this.writeForOperator((via) =>
          this.moveTo('DRAFT', { ...who(op), reasonCode: null }, via),
        );
        this.written.reset = true;
        this.resetBy = op;
        return answer;
      },
      {
        validator: (_op: OperatorRef) => {
          if (!allowsAction(state.status, 'reset') || this.resetBy)
            throw new Error(`只有「需人工处理」的任务可以重置为草稿（当前 ${state.status}）`);
          this.refuseWhileBusy();
        },
      },
    );
    setHandler(
      markPaidUpdate,
      async (op): Promise<OperatorAnswer | null> => {
        if (!patched('operator-writes-in-update')) {
          this.paidBy = op;
          return null;
        }
        const answer = await this.writeForOperator((via) => this.moveTo('SUCCEEDED', who(op), via));
        this.written.paid = true;
        this.paidBy = op;
        return answer;
      },
      {
        validator: (_op: OperatorRef) => {
          if (!allowsAction(state.status, 'mark-paid') || this.paidBy)
            throw new Error(`只有「待付款」的任务可以标记已付款（当前 ${state.status}）`);
          this.refuseWhileBusy();
        },
      },
    );
    setHandler(
      resolveReconciliationUpdate,
      async (r): Promise<OperatorAnswer | null> => {
        if (!patched('operator-writes-in-update')) {
          this.resolution = r;
          return null;
        }
        return await this.resolveNow(r);
      },
      {
        validator: (r) => {
          if (!allowsAction(state.status, 'resolve') || this.resolution)
            throw new Error(`只有「待核对」的任务可以录入核对结果（当前 ${state.status}）`);
          if (r.outcome === 'created' && !r.orderNo) throw new Error('请填写订单号');
          this.refuseWhileBusy();
        },
      },
    );
  }

  private refuseWhileBusy(): void {
    if (this.operatorBusy) throw new Error('另一个操作正在处理，请稍后刷新再试');
  }

  /**
   * The operator's change, written inside the update: the answer is what was written, and a write
   * that fails for good fails the update with its reason — the task stays where it was and the
   * operator may ask again (a new request; the failed one keeps its answer).
   */
  private async writeForOperator(write: (via: AdminApi) => Promise<void>): Promise<OperatorAnswer> {
    const { state } = this;
    const before = { status: state.status, reasonCode: state.reasonCode, orderNo: state.orderNo };
    this.operatorBusy = true;
    try {
      await write(operatorAdmin);
      return { result: 'applied', status: state.status };
    } catch (err) {
      if (!isLasting(err)) throw err;
      Object.assign(state, before);
      throw ApplicationFailure.nonRetryable(
        `未能写入，任务仍为 ${state.status}，请重试：${describe(err)}`,
        'OPERATOR_WRITE_FAILED',
      );
    } finally {
      this.operatorBusy = false;
    }
  }

  /**
   * 录入核对结果 waits for the workflow's own order check: when that found the one matching order
   * first, the operator's answer is superseded (it changed nothing; the admin audits it as such).
   */
  private async resolveNow(r: OperatorRef & ResolveReconciliationInput): Promise<OperatorAnswer> {
    this.operatorBusy = true;
    try {
      await condition(() => this.reconciling?.decided === true);
    } finally {
      this.operatorBusy = false;
    }
    if (this.state.status !== 'RECONCILIATION_REQUIRED') return { result: 'superseded', status: this.state.status };
    const { submissionId } = this.reconciling!;
    const answer = await this.writeForOperator(async (via) => {
      await via.recordSubmissionOutcome({
        submissionId,
        status: 'MANUAL_RESOLVED',
        orderNo: r.outcome === 'created' ? r.orderNo : null,
      });
      if (r.outcome === 'not_created') await this.moveTo('FAILED', who(r), via);
      else await this.moveTo('WAITING_PAYMENT', { ...who(r), orderNo: r.orderNo }, via);
    });
    this.written.resolvedTo = this.state.status;
    this.resolution = r;
    return answer;
  }

  /**
   * Waits for the operator — at most the operator wait (30 days unless the admin says otherwise):
   * false when nobody answered. Purchases parked before it waited without end and replay that
   * way (docs/versioning.md, `operator-wait-ends`).
   */
  private async operatorWait(answered: () => boolean): Promise<boolean> {
    if (!patched('operator-wait-ends')) {
      await condition(answered);
      return true;
    }
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
  private async closeUnanswered(): Promise<PurchaseStatus> {
    await condition(allHandlersFinished);
    log.warn('no operator answer within the operator wait: the workflow closes, the admin repairs the task', {
      taskId: this.input.taskId,
      status: this.state.status,
    });
    return this.state.status;
  }

  canceled(): boolean {
    return this.canceledBy !== null;
  }

  /** The cancel update writes CANCELED itself; the workflow must not close before it has. */
  async endCanceled(): Promise<PurchaseStatus> {
    await condition(allHandlersFinished);
    return 'CANCELED';
  }

  private throwIfCanceled(): void {
    if (this.canceledBy) throw new CanceledByOperator();
  }

  // ——— progress: the one place a state is recorded ———

  private async moveTo(
    to: PurchaseStatus,
    extra: {
      reasonCode?: ReasonCode | null;
      detail?: string;
      actor?: string;
      requestId?: string;
      orderNo?: string;
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
  private adminApi(): AdminApi {
    return this.claim && !this.released && patched('admin-deadline-while-held') ? heldAdmin : admin;
  }

  /**
   * Runs an admin write whose lasting failure must not end the workflow (the write of an ending,
   * of the operator's answer): false when it failed for good, which is logged. The workflow's own
   * state has already moved, so the operator still sees and gets the next step it offers.
   */
  private async settled(write: () => Promise<unknown>): Promise<boolean> {
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

  /** A lasting error of a step: before the fence's yes a stop with its reason, after it 待核对. */
  async afterLastingError(err: unknown): Promise<PurchaseStatus> {
    const s = this.submitted;
    if (s) return this.reconcile(s.submissionId, s.reading, s.tappedAt, 'AFTER_FENCE_STEP_FAILED', describe(err));
    return this.needsManual(reasonForLastingError(err), describe(err));
  }

  private recordReadings(r: Partial<FinalPanelReading>): void {
    this.state.gates = {
      gate1UnitPriceCent: r.gate1UnitPriceCent ?? null,
      gate2PanelTotalCent: r.gate2PanelTotalCent ?? null,
      gate3SubmitAmountCent: r.gate3SubmitAmountCent ?? null,
      quantityRead: r.quantityRead ?? null,
    };
  }

  // ——— the phone: claimed once, released once ———

  /** Waits for a phone until the authorization expires; null when none came (or a cancel came first). */
  async waitForPhone(): Promise<DeviceClaim | null> {
    const waitMs = Math.max(0, Date.parse(this.input.expiresAt) - Date.now());
    try {
      this.claim = await this.phoneScope.run(() => claimPhone(Math.max(1_000, waitMs)));
    } catch (err) {
      // a claim that timed out is an ActivityFailure: no phone before the authorization expired
      if (!isCancellation(err) && !(err instanceof ActivityFailure)) throw err;
    }
    return this.claim;
  }

  /**
   * Lets the phone go as soon as nothing more is done on it; safe to call from every ending. The
   * release retries until the phone host takes it, so it runs beside the rest: a dead host must
   * not hold back the operator's next step. Purchases started before that awaited it here and
   * must replay that way (docs/versioning.md).
   */
  async release(): Promise<void> {
    const claim = this.claim;
    if (claim && !this.released) {
      this.released = true;
      const inBackground = patched('release-in-background');
      const releasing = CancellationScope.nonCancellable(() => releasePhone(claim));
      if (inBackground) this.releasing = releasing;
      else await releasing;
    }
  }

  async releaseSettled(): Promise<void> {
    await this.releasing;
  }

  // ——— the steps ———

  /** A write that fails for good leaves the task to the admin's repair of a closed workflow. */
  async expire(): Promise<PurchaseStatus> {
    await this.settled(() => this.moveTo('DRAFT', { reasonCode: 'AUTHORIZATION_EXPIRED' }));
    return 'DRAFT';
  }

  /** The attempt first, so its timeline starts with the claim. */
  async begin(claim: DeviceClaim): Promise<PurchaseTarget> {
    const { input, state } = this;
    state.deviceId = claim.device_id;
    upsertSearchAttributes([{ key: DeviceIdAttr, value: claim.device_id }]);
    const target: PurchaseTarget = { ...input, attemptId: '', quantity: input.quantity };
    this.target = target;
    const beginAttempt = async () => {
      const begun = await this.adminApi().beginPurchaseAttempt({
        taskId: input.taskId,
        authorizationId: input.authorizationId,
        deviceId: claim.device_id,
        workflowId: workflowInfo().workflowId,
      });
      target.attemptId = begun.attemptId;
      // the phone's name beside its UUID in the Web UI; purchases from before had none
      if (begun.deviceName && patched('device-name-attribute'))
        upsertSearchAttributes([{ key: DeviceNameAttr, value: begun.deviceName }]);
    };
    // Purchases started before this order wrote CLAIMED first and must replay that way (docs/versioning.md).
    if (patched('attempt-before-claimed')) {
      await beginAttempt();
      await this.moveTo('CLAIMED');
    } else {
      await this.moveTo('CLAIMED');
      await beginAttempt();
    }
    await this.moveTo('ORDERING');
    state.step = 'preparing';
    return target;
  }

  /**
   * Open, select, Gate 1, quantity, Gate 2, Gate 3 on the phone — nothing irreversible — and
   * then the workflow judges the readings itself: the phone's verdict is not taken on trust.
   * A device failure (retries spent, or a stop) is the reason its code names in
   * domain/purchase/failures.ts, not a failed workflow stuck in ORDERING.
   */
  async prepareThroughGates(claim: DeviceClaim, target: PurchaseTarget): Promise<Step<{ reading: FinalPanelReading }>> {
    const { input } = this;
    let prepared: PreparedPurchase | RecordedPrepareStop;
    try {
      prepared = (await this.phoneScope.run(() =>
        phoneActivities(claim.task_queue).prepare.preparePurchase({ claim, target }),
      )) as PreparedPurchase | RecordedPrepareStop;
    } catch (err) {
      this.throwIfCanceled();
      const failure = deviceFailure(err);
      if (failure.reading) this.recordReadings(failure.reading);
      await this.recordStop(target, {
        code: failure.code,
        detail: failure.detail,
        ...(failure.artifactPath ? { artifactRef: failure.artifactPath } : {}),
      });
      return { ok: false, reason: reasonForDeviceFailure(failure.code), detail: failure.detail };
    }
    this.recordReadings(prepared.reading);
    if (!prepared.ok) {
      await this.recordStop(target, {
        code: prepared.reason,
        detail: prepared.detail,
        artifactRef: prepared.artifactPath,
      });
      return prepared;
    }
    const reading = prepared.reading;
    const verdict = allGates(reading, input.quantity, input.capCent);
    await this.adminApi().recordAttemptProgress({
      attemptId: target.attemptId,
      step: 'final_panel',
      readings: this.state.gates,
      confirmedOptions: reading.options,
      goods: { title: reading.title, shopName: reading.shopName },
      interstitials: prepared.interstitialsClosed ?? [],
      status: verdict.pass ? 'RUNNING' : 'STOPPED',
    });
    if (!verdict.pass) return { ok: false, reason: verdict.reason, detail: verdict.detail };
    this.throwIfCanceled();
    return { ok: true, reading };
  }

  private async recordStop(
    target: PurchaseTarget,
    failure: { code: string; detail: string; artifactRef?: string | null },
  ): Promise<void> {
    await this.adminApi().recordAttemptProgress({
      attemptId: target.attemptId,
      step: 'stopped',
      readings: this.state.gates,
      failure,
      status: 'STOPPED',
    });
  }

  async passDryRun(target: PurchaseTarget, reading: FinalPanelReading): Promise<PurchaseStatus> {
    await this.adminApi().recordAttemptProgress({
      attemptId: target.attemptId,
      step: 'dry_run_passed',
      status: 'PASSED',
    });
    await this.adminApi().savePurchaseResult({
      taskId: this.input.taskId,
      attemptId: target.attemptId,
      purchase: purchaseResult(this.input, reading, { submitted: false }),
    });
    await this.moveTo('DRY_RUN_PASSED');
    return 'DRY_RUN_PASSED';
  }

  /** The fence. From here on, cancel is refused. */
  async fence(target: PurchaseTarget, reading: FinalPanelReading): Promise<Step<{ submissionId: string }>> {
    const { input, state } = this;
    this.fenceRequested = true;
    state.step = 'fence';
    let decision;
    try {
      decision = await fence.createSubmissionFence({
        taskId: input.taskId,
        authorizationId: input.authorizationId,
        attemptId: target.attemptId,
        confirmation: reading,
      });
    } catch {
      // No answer, no tap — and submitOnce is never called for this authorization, so a row the
      // fence may have committed is marked as never tapped.
      await this.adminApi().abandonUntappedFence({ authorizationId: input.authorizationId });
      return { ok: false, reason: 'FENCE_UNAVAILABLE', detail: 'the fence gave no answer; nothing was tapped' };
    }
    if (!decision.clickPermitted)
      return {
        ok: false,
        reason: decision.reason === 'DEVICE_REVOKED' ? 'DEVICE_REVOKED' : 'FENCE_REFUSED',
        detail: decision.detail,
      };
    state.fenced = true;
    this.submitted = { submissionId: decision.submissionId, reading, tappedAt: null };
    return { ok: true, submissionId: decision.submissionId };
  }

  /**
   * submitOnce — one attempt, ever. Any failure is an unknown outcome: reconcile, never retry —
   * except that no phone host took it within its schedule-to-start timeout: then it never ran.
   */
  async tapOnce(
    claim: DeviceClaim,
    target: PurchaseTarget,
    submissionId: string,
    expected: FinalPanelReading,
  ): Promise<{ ok: true; tappedAt: string } | { ok: false; neverStarted: boolean; detail: string }> {
    this.state.step = 'submit';
    let tappedAt: string;
    try {
      tappedAt = (await phoneActivities(claim.task_queue).submit.submitOnce({ claim, target, submissionId, expected }))
        .tappedAt;
    } catch (err) {
      const neverStarted =
        err instanceof ActivityFailure &&
        err.cause instanceof TimeoutFailure &&
        err.cause.timeoutType === 'SCHEDULE_TO_START';
      return { ok: false, neverStarted, detail: describe(err) };
    }
    if (this.submitted) this.submitted.tappedAt = tappedAt;
    // the tap happened whether or not its time is recorded
    await this.settled(() => this.adminApi().recordSubmissionTapped({ submissionId, tappedAt }));
    return { ok: true, tappedAt };
  }

  /** The fence said yes but submitOnce never started: nothing was tapped, so a person looks at the phone. */
  async untappedAfterFence(detail: string): Promise<PurchaseStatus> {
    await this.adminApi().abandonUntappedFence({ authorizationId: this.input.authorizationId });
    return this.needsManual('DEVICE_ERROR', `submitOnce never started on the phone (${detail}); nothing was tapped`);
  }

  /** Read-only: what the phone shows after the tap; null when it could not tell. */
  async observe(claim: DeviceClaim, target: PurchaseTarget, submissionId: string): Promise<Observation | null> {
    this.state.step = 'observe';
    return phoneActivities(claim.task_queue)
      .read.observeAfterSubmit({ claim, target, submissionId })
      .catch(() => null);
  }

  async recordPendingPayment(
    submissionId: string,
    target: PurchaseTarget,
    reading: FinalPanelReading,
    seen: Observation,
  ): Promise<void> {
    await this.adminApi().recordSubmissionOutcome({
      submissionId,
      status: 'SUBMITTED',
      orderNo: seen.orderNo,
      ...(seen.orderedAt ? { orderedAt: seen.orderedAt } : {}),
    });
    await this.adminApi().savePurchaseResult({
      taskId: this.input.taskId,
      attemptId: target.attemptId,
      purchase: purchaseResult(this.input, reading, {
        submitted: true,
        orderNo: seen.orderNo,
        orderedAtRaw: seen.orderedAtRaw,
        orderedAt: seen.orderedAt ?? null,
      }),
    });
    await this.moveTo('WAITING_PAYMENT', { ...(seen.orderNo ? { orderNo: seen.orderNo } : {}) });
  }

  // ——— the endings, each waiting for the operator's safe next step ———

  /** Stopped before the fence, nothing ordered: the operator resets to DRAFT or cancels. */
  async needsManual(reason: ReasonCode, detail: string): Promise<PurchaseStatus> {
    this.throwIfCanceled();
    await this.settled(() => this.moveTo('NEEDS_MANUAL', { reasonCode: reason, detail }));
    await this.release();
    if (!(await this.operatorWait(() => this.resetBy !== null || this.canceledBy !== null)))
      return await this.closeUnanswered();
    this.throwIfCanceled();
    if (this.written.reset) return 'DRAFT';
    const by = this.resetBy!;
    if (
      await this.settled(() =>
        this.moveTo('DRAFT', {
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

  /**
   * The tap may have created an order: read-only reconcile against the orders list, and when
   * exactly one order matches it is the one; otherwise the operator resolves.
   */
  async reconcile(
    submissionId: string,
    reading: FinalPanelReading,
    tappedAt: string | null,
    reason: ReasonCode,
    detail: string,
  ): Promise<PurchaseStatus> {
    const { input, state } = this;
    const claim = this.claim!;
    this.reconciling = { submissionId, decided: false };
    await this.settled(() =>
      this.adminApi().recordSubmissionOutcome({ submissionId, status: 'RECONCILIATION_REQUIRED' }),
    );
    await this.settled(() => this.moveTo('RECONCILIATION_REQUIRED', { reasonCode: reason, detail }));
    state.step = 'reconcile';
    const at = tappedAt ?? new Date(Date.now()).toISOString().slice(0, 19) + 'Z';
    const listed = await phoneActivities(claim.task_queue)
      .read.readPendingOrders({ claim, target: this.target! })
      .catch(() => null);
    const verdict = listed
      ? matchPendingOrder(listed.orders, {
          goodsId: input.goodsId,
          options: reading.options,
          quantity: input.quantity,
          amountCent: reading.gate3SubmitAmountCent!,
          submittedAt: at,
        })
      : null;
    await this.release();
    if (verdict?.matched) {
      const matched = await this.settled(async () => {
        await this.adminApi().recordSubmissionOutcome({
          submissionId,
          status: 'SUBMITTED',
          orderNo: verdict.order.orderNo,
          ...(verdict.order.placedAt ? { orderedAt: verdict.order.placedAt } : {}),
        });
        await this.adminApi().savePurchaseResult({
          taskId: input.taskId,
          attemptId: this.target!.attemptId,
          purchase: purchaseResult(input, reading, {
            submitted: true,
            orderNo: verdict.order.orderNo,
            orderedAtRaw: verdict.order.placedAtRaw,
            orderedAt: verdict.order.placedAt,
          }),
        });
        await this.moveTo('WAITING_PAYMENT', { orderNo: verdict.order.orderNo });
      });
      if (matched) {
        this.reconciling.decided = true;
        return await this.waitForPayment();
      }
      state.status = 'RECONCILIATION_REQUIRED';
    }
    this.reconciling.decided = true;
    // The operator's answer; one that could not be written is asked for again.
    for (;;) {
      if (!(await this.operatorWait(() => this.resolution !== null))) return await this.closeUnanswered();
      if (this.written.resolvedTo) return this.written.resolvedTo === 'FAILED' ? 'FAILED' : await this.waitForPayment();
      const r = this.resolution!;
      const who = { actor: r.actor, ...(r.requestId ? { requestId: r.requestId } : {}) };
      let ending: PurchaseStatus = 'FAILED';
      const written = await this.settled(async () => {
        await this.adminApi().recordSubmissionOutcome({
          submissionId,
          status: 'MANUAL_RESOLVED',
          orderNo: r.outcome === 'created' ? r.orderNo : null,
        });
        if (r.outcome === 'not_created') {
          await this.moveTo('FAILED', who);
          return;
        }
        await this.moveTo('WAITING_PAYMENT', { ...who, orderNo: r.orderNo });
        ending = 'WAITING_PAYMENT';
      });
      if (written) return ending === 'FAILED' ? 'FAILED' : await this.waitForPayment();
      this.resolution = null;
      state.status = 'RECONCILIATION_REQUIRED';
    }
  }

  /** An unpaid order exists: a person pays in the PDD app and marks it paid. */
  async waitForPayment(): Promise<PurchaseStatus> {
    await this.release();
    // a 标记已付款 that could not be written is asked for again
    for (;;) {
      if (!(await this.operatorWait(() => this.paidBy !== null))) return await this.closeUnanswered();
      if (this.written.paid) return 'SUCCEEDED';
      const by = this.paidBy!;
      if (
        await this.settled(() =>
          this.moveTo('SUCCEEDED', { actor: by.actor, ...(by.requestId ? { requestId: by.requestId } : {}) }),
        )
      )
        return 'SUCCEEDED';
      this.paidBy = null;
      this.state.status = 'WAITING_PAYMENT';
    }
  }
}

/**
 * A failure no retry heals: an admin activity's non-retryable error (its retries are unlimited)
 * or a device failure that escaped its step. Anything else is a bug in workflow code, which
 * fails the workflow task (retried on the next deploy), not the purchase.
 */
function isLasting(err: unknown): boolean {
  return err instanceof ActivityFailure || err instanceof ApplicationFailure;
}

function reasonForLastingError(err: unknown): ReasonCode {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure && cause.type === 'DEVICE_REVOKED'
    ? 'DEVICE_REVOKED'
    : 'ADMIN_STEP_FAILED';
}

function afterSubmitReason(seen: Observation | null): ReasonCode {
  if (seen?.outcome === 'payment_handoff') return 'PAYMENT_HANDOFF';
  if (seen?.outcome === 'captcha') return 'CAPTCHA_AFTER_SUBMIT';
  return 'SUBMIT_OUTCOME_UNKNOWN';
}

/**
 * A failed device activity as the device worker described it: its code (the failure's type),
 * the message, where the artifacts are and what was read. Without a device code (a timeout, a
 * lost worker) it is DEVICE_ERROR.
 */
function deviceFailure(err: unknown): {
  code: string;
  detail: string;
  artifactPath: string | null;
  reading: Partial<FinalPanelReading> | null;
} {
  const f = describeFailure(err);
  return { code: f.type ?? 'DEVICE_ERROR', detail: f.message, artifactPath: f.artifactPath, reading: f.reading };
}

const describe = (err: unknown): string => describeFailure(err).message;

/** The operator as an audit row names them. */
const who = (op: OperatorRef): { actor: string; requestId?: string } => ({
  actor: op.actor,
  ...(op.requestId ? { requestId: op.requestId } : {}),
});

function purchaseResult(
  input: PurchaseWorkflowInput,
  full: FinalPanelReading,
  outcome: { submitted: boolean; orderNo?: string | null; orderedAtRaw?: string | null; orderedAt?: string | null },
): PurchaseResult {
  return {
    mode: input.mode,
    requested: { options: input.options, quantity: input.quantity, max_price_cent: input.capCent },
    confirmed: {
      options: full.options,
      quantity: full.quantityRead ?? input.quantity,
      unit_price_cent: full.gate1UnitPriceCent,
      total_price_cent: full.gate3SubmitAmountCent,
    },
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
