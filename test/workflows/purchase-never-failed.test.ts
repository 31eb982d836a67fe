import type { WorkflowHandle } from '@temporalio/client';
import {
  cancelUpdate,
  markPaidUpdate,
  resetUpdate,
  resolveReconciliationUpdate,
} from '../../domain/contracts/purchase-messages';
import { fakePurchaseRig, keep, pendingOrder, stateOf, until } from './fake-purchase';

/**
 * The purchase workflow with fake activities (./fake-purchase.ts). An admin activity failing for
 * good never fails the workflow: before the fence's yes the task stops in NEEDS_MANUAL with its
 * reason, after it it waits in 待核对 for the operator.
 */
describe('purchase workflow: never Failed, never stuck', () => {
  const { rig, setUp, tearDown, reset, start: startRun } = fakePurchaseRig('never');
  const calls = {
    get statuses() {
      return rig.calls.statuses;
    },
    get activities() {
      return rig.calls.activities;
    },
  };
  let script = rig.script;
  beforeAll(() => setUp());
  afterAll(tearDown);
  beforeEach(() => {
    reset();
    script = rig.script;
  });
  const start = (): Promise<WorkflowHandle> => startRun();

  it('an admin activity failing for good before the fence → NEEDS_MANUAL with its reason, running; reset ends it in DRAFT', async () => {
    script.failing = { activity: 'recordAttemptProgress', type: 'PURCHASE_RESULT_INVALID' };
    const handle = await start();
    const s = await stateOf(handle, 'NEEDS_MANUAL');
    expect(s.reasonCode).toBe('ADMIN_STEP_FAILED');
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(calls.activities).not.toContain('createSubmissionFence');
    expect(calls.activities).not.toContain('submitOnce');
    await handle.executeUpdate(resetUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('DRAFT');
    await keep('purchase-admin-failed-before-fence', handle);
    expect(calls.statuses).toEqual(['CLAIMED', 'ORDERING', 'NEEDS_MANUAL', 'DRAFT']);
  });

  it('an admin activity failing for good after the fence → 待核对, running; the operator resolves and marks paid → SUCCEEDED', async () => {
    script.failing = { activity: 'savePurchaseResult', type: 'PURCHASE_RESULT_INVALID' };
    const handle = await start();
    const s = await stateOf(handle, 'RECONCILIATION_REQUIRED');
    expect(s.reasonCode).toBe('AFTER_FENCE_STEP_FAILED');
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(calls.activities.filter((a) => a === 'submitOnce')).toHaveLength(1);
    script.failing = undefined;
    await handle.executeUpdate(resolveReconciliationUpdate, {
      args: [{ actor: 'op', outcome: 'created', orderNo: 'PO-1' }],
    });
    await stateOf(handle, 'WAITING_PAYMENT');
    await handle.executeUpdate(markPaidUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('SUCCEEDED');
    await keep('purchase-admin-failed-after-fence', handle);
    expect(calls.activities.filter((a) => a === 'submitOnce')).toHaveLength(1);
  });

  it('the write of 待核对 itself failing for good: the workflow still waits for the operator and asks again when a write of the answer fails', async () => {
    script.failing = { activity: 'recordSubmissionOutcome', type: 'ILLEGAL_TRANSITION' };
    script.observation = { outcome: 'unknown', orderNo: null, orderedAtRaw: null };
    const handle = await start();
    await stateOf(handle, 'RECONCILIATION_REQUIRED');
    const outcomeWrites = () => calls.activities.filter((a) => a === 'recordSubmissionOutcome').length;
    expect(outcomeWrites()).toBe(1);
    // the answer cannot be written: the update fails with the reason, the workflow does not end
    await expect(
      handle.executeUpdate(resolveReconciliationUpdate, { args: [{ actor: 'op', outcome: 'not_created' }] }),
    ).rejects.toMatchObject({ cause: { type: 'OPERATOR_WRITE_FAILED' } });
    expect(outcomeWrites()).toBe(2);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    script.failing = undefined;
    // the validator takes a new answer once the failed one is forgotten
    for (;;) {
      const sent = await handle
        .executeUpdate(resolveReconciliationUpdate, { args: [{ actor: 'op', outcome: 'not_created' }] })
        .then(
          () => true,
          () => false,
        );
      if (sent) break;
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await handle.result()).toBe('FAILED');
    await keep('purchase-resolve-write-failed', handle);
  });

  it('a revoked device gets no attempt: NEEDS_MANUAL DEVICE_REVOKED, no fence, no tap; the operator cancels it', async () => {
    script.failing = { activity: 'beginPurchaseAttempt', type: 'DEVICE_REVOKED' };
    const handle = await start();
    const s = await stateOf(handle, 'NEEDS_MANUAL');
    expect(s.reasonCode).toBe('DEVICE_REVOKED');
    await until(() => calls.activities.includes('releaseDevice'));
    expect(calls.statuses).toEqual(['NEEDS_MANUAL']);
    expect(calls.activities).not.toContain('preparePurchase');
    expect(calls.activities).not.toContain('createSubmissionFence');
    expect(calls.activities).toContain('releaseDevice');
    await handle.executeUpdate(cancelUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('CANCELED');
    await keep('purchase-revoked-canceled', handle);
    expect(calls.statuses).toEqual(['NEEDS_MANUAL', 'CANCELED']);
  });

  it('a fence refused for a revoked device: NEEDS_MANUAL DEVICE_REVOKED, no tap', async () => {
    script.fence = { clickPermitted: false, reason: 'DEVICE_REVOKED', detail: 'device stub-phone is REVOKED' };
    const handle = await start();
    const s = await stateOf(handle, 'NEEDS_MANUAL');
    expect(s.reasonCode).toBe('DEVICE_REVOKED');
    expect(calls.activities).not.toContain('submitOnce');
    await handle.executeUpdate(resetUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('DRAFT');
    await keep('purchase-fence-revoked', handle);
  });

  it.each([
    { name: 'zero', pending: [] as ReturnType<typeof pendingOrder>[] },
    { name: 'two', pending: [pendingOrder('PO-A'), pendingOrder('PO-B')] },
  ])('the cashier with $name candidate orders → 待核对 ORDER_NOT_MATCHED, never 待付款', async ({ name, pending }) => {
    script.observation = { outcome: 'pending_payment', orderNo: null, orderedAtRaw: null };
    script.pending = pending;
    const handle = await start();
    const s = await stateOf(handle, 'RECONCILIATION_REQUIRED');
    expect(s.reasonCode).toBe('ORDER_NOT_MATCHED');
    await until(() => calls.activities.includes('readPendingOrders'));
    expect(calls.statuses).not.toContain('WAITING_PAYMENT');
    await handle.executeUpdate(resolveReconciliationUpdate, { args: [{ actor: 'op', outcome: 'not_created' }] });
    expect(await handle.result()).toBe('FAILED');
    await keep(`purchase-cashier-${name}-orders`, handle);
  });

  it('two mark-paid updates with one update id: one transition, the same answer', async () => {
    const handle = await start();
    await stateOf(handle, 'WAITING_PAYMENT');
    const send = () =>
      handle.executeUpdate(markPaidUpdate, {
        updateId: 'mark-paid-once',
        args: [{ actor: 'op', requestId: 'mark-paid-once' }],
      });
    const answers = await Promise.allSettled([send(), send()]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await handle.result()).toBe('SUCCEEDED');
    await keep('purchase-mark-paid-once', handle);
    expect(calls.statuses.filter((s) => s === 'SUCCEEDED')).toHaveLength(1);
  });
});
