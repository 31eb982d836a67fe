import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import {
  cancelUpdate,
  markPaidUpdate,
  resetUpdate,
  resolveReconciliationUpdate,
  stateQuery,
} from '../../domain/contracts/purchase-messages';
import { DeviceIdAttr, DeviceNameAttr, TaskStatusAttr } from '../../domain/search-attributes';
import { CLAIM, fakePurchaseRig, keep, pendingOrder, READING, stateOf, until } from './fake-purchase';

/**
 * What the operator is told is what happened: the write behind an update happens inside it (a
 * lasting failure fails the update, the task stays), an answer the workflow's own reconcile
 * overtook says so, and cancel agrees with the state machine after a fence that tapped nothing.
 * Each ending is kept as a history for the replay test (./fake-purchase.ts, `keep`).
 */
describe('purchase workflow: operator answers and every branch', () => {
  const { rig, setUp, tearDown, reset, start, phoneOn } = fakePurchaseRig('answers');
  beforeAll(() => setUp());
  afterAll(tearDown);
  beforeEach(reset);

  const op = (requestId?: string) => ({ actor: 'op', ...(requestId ? { requestId } : {}) });
  const failedUpdate = { cause: { type: 'OPERATOR_WRITE_FAILED' } };

  it('a fence refused: NEEDS_MANUAL FENCE_REFUSED, no tap, and the 取消 the state machine offers is accepted', async () => {
    rig.script.fence = { clickPermitted: false, reason: 'FENCE_REFUSED', detail: 'authorization expired' };
    const handle = await start();
    expect((await stateOf(handle, 'NEEDS_MANUAL')).reasonCode).toBe('FENCE_REFUSED');
    expect(await handle.executeUpdate(cancelUpdate, { args: [op()] })).toEqual({
      result: 'applied',
      status: 'CANCELED',
    });
    expect(await handle.result()).toBe('CANCELED');
    expect(rig.calls.activities).not.toContain('submitOnce');
    expect(rig.calls.statuses.slice(-2)).toEqual(['NEEDS_MANUAL', 'CANCELED']);
    await keep('purchase-fence-refused-canceled', handle);
  });

  it('after a tap, cancel is still refused: 待核对 is resolved, never canceled', async () => {
    rig.script.submitFails = 'the tap was refused late: 20 s left';
    const handle = await start();
    expect((await stateOf(handle, 'RECONCILIATION_REQUIRED')).reasonCode).toBe('SUBMIT_NOT_CONFIRMED');
    await expect(handle.executeUpdate(cancelUpdate, { args: [op()] })).rejects.toThrow();
    await until(() => rig.calls.activities.includes('readPendingOrders'));
    expect(
      await handle.executeUpdate(resolveReconciliationUpdate, { args: [{ ...op(), outcome: 'not_created' }] }),
    ).toEqual({
      result: 'applied',
      status: 'FAILED',
    });
    expect(await handle.result()).toBe('FAILED');
    await keep('purchase-tap-failed', handle);
  });

  it('标记已付款 whose write fails for good is not reported done: the update fails with the reason, the task stays 待付款, asking again succeeds', async () => {
    const handle = await start();
    await stateOf(handle, 'WAITING_PAYMENT');
    rig.script.failingStatus = 'SUCCEEDED';
    await expect(handle.executeUpdate(markPaidUpdate, { updateId: 'v3', args: [op('v3')] })).rejects.toMatchObject(
      failedUpdate,
    );
    expect((await stateOf(handle, 'WAITING_PAYMENT')).status).toBe('WAITING_PAYMENT');
    expect(rig.calls.statuses).not.toContain('SUCCEEDED');
    // the same update id keeps its answer: the failure, never a false "done"
    await expect(handle.executeUpdate(markPaidUpdate, { updateId: 'v3', args: [op('v3')] })).rejects.toMatchObject(
      failedUpdate,
    );
    rig.script.failingStatus = undefined;
    expect(await handle.executeUpdate(markPaidUpdate, { updateId: 'v3/r1', args: [op('v3/r1')] })).toEqual({
      result: 'applied',
      status: 'SUCCEEDED',
    });
    expect(await handle.result()).toBe('SUCCEEDED');
    expect(rig.calls.statuses.filter((s) => s === 'SUCCEEDED')).toHaveLength(1);
    await keep('purchase-mark-paid-write-failed', handle);
  });

  it('重置 whose write fails for good: the update fails, the task stays 需人工处理, asking again resets it', async () => {
    rig.script.reading = { ...READING, gate3SubmitAmountCent: 2500 };
    const handle = await start();
    // the phone passed the panel, the workflow's own Gate 3 did not
    expect((await stateOf(handle, 'NEEDS_MANUAL')).reasonCode).toBe('GATE3_MISMATCH');
    expect(rig.calls.activities).not.toContain('createSubmissionFence');
    rig.script.failingStatus = 'DRAFT';
    await expect(handle.executeUpdate(resetUpdate, { args: [op()] })).rejects.toMatchObject(failedUpdate);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    rig.script.failingStatus = undefined;
    expect(await handle.executeUpdate(resetUpdate, { args: [op()] })).toEqual({ result: 'applied', status: 'DRAFT' });
    expect(await handle.result()).toBe('DRAFT');
    await keep('purchase-gates-rejected-reset-write-failed', handle);
  });

  it('录入核对结果 racing the workflow own order check: the check found the order first, the answer is superseded and changes nothing', async () => {
    let open!: () => void;
    rig.script.pendingGate = new Promise<void>((r) => (open = r));
    rig.script.observation = { outcome: 'unknown', orderNo: null, orderedAtRaw: null };
    rig.script.pending = [pendingOrder('PO-MATCHED')];
    const handle = await start();
    await stateOf(handle, 'RECONCILIATION_REQUIRED');
    await until(() => rig.calls.activities.includes('readPendingOrders'));
    // accepted while the task shows 待核对, answered once the workflow's own check has decided
    const update = await handle.startUpdate(resolveReconciliationUpdate, {
      args: [{ ...op(), outcome: 'created', orderNo: 'ORDER-FIRST' }],
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    open();
    expect(await update.result()).toEqual({ result: 'superseded', status: 'WAITING_PAYMENT' });
    const s = await stateOf(handle, 'WAITING_PAYMENT');
    expect(s.orderNo).toBe('PO-MATCHED');
    expect(rig.calls.statuses).not.toContain('FAILED');
    await keep('purchase-resolve-superseded', handle);
    await handle.executeUpdate(markPaidUpdate, { args: [op()] });
    expect(await handle.result()).toBe('SUCCEEDED');
  });

  it('录入核对结果 when the check found nothing: applied, and the answer carries the new state', async () => {
    rig.script.observation = { outcome: 'payment_handoff', orderNo: null, orderedAtRaw: null };
    const handle = await start();
    expect((await stateOf(handle, 'RECONCILIATION_REQUIRED')).reasonCode).toBe('PAYMENT_HANDOFF');
    expect(
      await handle.executeUpdate(resolveReconciliationUpdate, {
        args: [{ ...op(), outcome: 'created', orderNo: 'ORDER-OP' }],
      }),
    ).toEqual({ result: 'applied', status: 'WAITING_PAYMENT' });
    expect(await handle.query(stateQuery)).toMatchObject({ status: 'WAITING_PAYMENT', orderNo: 'ORDER-OP' });
    await keep('purchase-payment-handoff', handle);
  });

  it('observe and the orders read both failing: 待核对, parked for the operator', async () => {
    rig.script.observeFails = 'the phone went dark';
    rig.script.pendingFails = 'the phone went dark';
    const handle = await start();
    expect((await stateOf(handle, 'RECONCILIATION_REQUIRED')).reasonCode).toBe('SUBMIT_OUTCOME_UNKNOWN');
    await until(() => rig.calls.activities.includes('releaseDevice'));
    await keep('purchase-observe-failed', handle);
  });

  it('a dry run releases the phone beside its ending', async () => {
    const handle = await start({ mode: 'dry_run' });
    expect(await handle.result()).toBe('DRY_RUN_PASSED');
    expect(rig.calls.activities).toContain('releaseDevice');
    // the Web UI finds it by the phone's name as well as its UUID, and says what it did
    const d = await handle.describe();
    expect(d.typedSearchAttributes.get(DeviceNameAttr)).toBe('测试手机 1');
    expect(d.typedSearchAttributes.get(DeviceIdAttr)).toBe(CLAIM.device_id);
    expect(d.typedSearchAttributes.get(TaskStatusAttr)).toBe('DRY_RUN_PASSED');
    await keep('purchase-dry-run-released', handle);
  });

  it('cancel while claimDevice is pending: CANCELED, no attempt', async () => {
    let give!: () => void;
    rig.script.claimGate = new Promise<void>((r) => (give = r));
    const handle = await start();
    await stateOf(handle, 'PENDING');
    expect(await handle.executeUpdate(cancelUpdate, { args: [op()] })).toEqual({
      result: 'applied',
      status: 'CANCELED',
    });
    expect(await handle.result()).toBe('CANCELED');
    give();
    expect(rig.calls.activities).not.toContain('beginPurchaseAttempt');
    await keep('purchase-cancel-while-claiming', handle);
  });

  it('submitOnce never taken by the phone host (SCHEDULE_TO_START): NEEDS_MANUAL, nothing tapped, the operator cancels', async () => {
    const queue = `device/vanishing-${process.pid}`;
    const phone = await phoneOn(queue);
    rig.script.claim = { ...CLAIM, task_queue: queue };
    // the phone host goes away after the final panel, before the tap is asked for
    rig.script.beforeFence = async () => {
      phone.worker.shutdown();
      await phone.stopped;
    };
    const handle: WorkflowHandle = await start();
    const s = await stateOf(handle, 'NEEDS_MANUAL');
    expect(s.reasonCode).toBe('DEVICE_ERROR');
    expect(s.fenced).toBe(true);
    expect(rig.calls.activities).not.toContain('submitOnce');
    expect(rig.calls.activities).toContain('abandonUntappedFence');
    expect(await handle.executeUpdate(cancelUpdate, { args: [op()] })).toEqual({
      result: 'applied',
      status: 'CANCELED',
    });
    // the host comes back and takes the release; the workflow closes after it
    await phoneOn(queue);
    expect(await handle.result()).toBe('CANCELED');
    await keep('purchase-untapped-canceled', handle);
  });
});
