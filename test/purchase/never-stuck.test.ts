import { Writable } from 'node:stream';
import pino from 'pino';
import { revokeDeviceCredential } from '../../admin/auth/device-credentials';
import { startDeviceWorker } from '../../workers/device';
import { issueTestDevice, tempDataDir } from '../harness';
import { BLACK_M, FAST_TIMING, startPurchaseRig, type PurchaseRig } from './setup';

/**
 * The purchase's safety rules (docs/architecture.md §4.3) and the operator's way out, through the whole stack (operator API, real
 * workflow, device worker, simulated phone): the cashier alone is not success, no payment page is
 * photographed, every stop keeps its screenshot, a workflow closed by hand is settled by the
 * operator without a second purchase, a retried 标记已付款 acts once, and a revoked phone buys
 * nothing.
 */
describe('purchase: never stuck, the safety rules', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  beforeEach(async () => {
    await rig.resetPhone();
    rig.onSubmitTap(null);
  });

  const auditRows = (taskId: string) =>
    rig.admin.db
      .selectFrom('audit_log')
      .select(['action', 'details_json'])
      .where('target_kind', '=', 'task')
      .where('target_id', '=', taskId)
      .orderBy('id')
      .execute();

  it.each([
    { name: 'zero', change: (orders: ReturnType<PurchaseRig['orders']>) => void orders.splice(0) },
    {
      name: 'two',
      change: (orders: ReturnType<PurchaseRig['orders']>) =>
        void orders.push({ ...orders[0]!, order_no: `${orders[0]!.order_no}9` }),
    },
  ])(
    'the cashier with $name candidate orders → 待核对 (ORDER_NOT_MATCHED), one tap, no payment tap, no cashier screenshot',
    async ({ change }) => {
      rig.onSubmitTap(() => change(rig.orders()));
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
      const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL']);
      expect({ status: t.status, reason: t.reason_code }).toEqual({
        status: 'RECONCILIATION_REQUIRED',
        reason: 'ORDER_NOT_MATCHED',
      });
      expect(t.pdd_order_no).toBeNull();
      expect(rig.submitTaps()).toHaveLength(1);
      expect(rig.paymentTaps()).toHaveLength(0);
      // the result screen was the cashier: never photographed
      expect(t.evidence.map((e) => e.kind)).not.toContain('ORDER_RESULT');
    },
  );

  it('a payment hand-off after the tap: 待核对, and no screenshot of the hand-off screen', async () => {
    rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'payment_handoff' });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL']);
    // The hand-off is never taken as success: the task goes to 待核对 with its reason, and the
    // read-only reconcile that follows may find its one order in 待付款 and move it on.
    expect(t.reason_code).toBe('PAYMENT_HANDOFF');
    expect(['RECONCILIATION_REQUIRED', 'WAITING_PAYMENT']).toContain(t.status);
    expect(t.evidence.map((e) => e.kind)).toEqual(expect.arrayContaining(['SKU_PANEL_GATE_1', 'SUBMIT_PANEL_GATE_3']));
    expect(t.evidence.map((e) => e.kind)).not.toContain('ORDER_RESULT');
    expect(rig.paymentTaps()).toHaveLength(0);
  });

  it('a NEEDS_MANUAL stop before the fence keeps a screenshot of the phone where it stopped', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 2500 });
    const t = await rig.waitFor(id, ['NEEDS_MANUAL', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED']);
    expect({ status: t.status, reason: t.reason_code }).toEqual({ status: 'NEEDS_MANUAL', reason: 'GATE1_OVER_CAP' });
    expect(t.evidence.map((e) => e.kind)).toContain('SAFETY_STOP');
    const shot = await rig.op.get(`/api/evidence/${t.evidence.find((e) => e.kind === 'SAFETY_STOP')!.id}`);
    expect(shot.status).toBe(200);
  });

  it('a workflow terminated in 待核对: the task shows it, the operator resolves it (created) with an audit row, and no new purchase happens', async () => {
    rig.sim.phone(rig.serial).setFaults({ submit_outcome: 'captcha' });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const parked = await rig.waitFor(id, ['RECONCILIATION_REQUIRED', 'WAITING_PAYMENT', 'NEEDS_MANUAL']);
    expect(parked.status).toBe('RECONCILIATION_REQUIRED');
    const client = await rig.admin.temporal.client();
    await client.workflow.getHandle(parked.workflow_id!).terminate('terminated by hand in a test');

    const seen = await rig.task(id);
    expect(seen.workflow_closed).toBe('TERMINATED');
    const ordersBefore = rig.orders().length;

    const res = await rig.op.post(`/api/tasks/${id}/resolve`, { outcome: 'created', pdd_order_no: 'PO-BY-HAND-1' });
    expect(res.status).toBe(200);
    // the number lands in pdd_order_no, beside the 顺运宝 one (syb_order_no), as the workflow writes it
    expect(res.body).toMatchObject({ status: 'WAITING_PAYMENT', pdd_order_no: 'PO-BY-HAND-1', result: 'applied' });
    expect(res.body).toMatchObject({ syb_order_no: null });
    expect(res.body).not.toHaveProperty('order_no');
    const audit = await auditRows(id);
    const repaired = audit.filter((a) => a.action === 'task.repaired');
    expect(repaired).toHaveLength(1);
    expect(JSON.parse(repaired[0]!.details_json!)).toMatchObject({
      from: 'RECONCILIATION_REQUIRED',
      to: 'WAITING_PAYMENT',
      workflow_status: 'TERMINATED',
      reached_fence: true,
      pdd_order_no: 'PO-BY-HAND-1',
    });

    // 标记已付款 needs no workflow either; and nothing was bought again
    const paid = await rig.op.post(`/api/tasks/${id}/mark-paid`);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'SUCCEEDED' });
    expect(rig.orders()).toHaveLength(ordersBefore);
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.submissionRows().filter((r) => r.task_id === id)).toHaveLength(1);
  });

  it('a workflow terminated before the fence: created is refused (no fence, no order), not created sends it back to DRAFT with an audit row', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 2500 });
    const stopped = await rig.waitFor(id, ['NEEDS_MANUAL']);
    const client = await rig.admin.temporal.client();
    await client.workflow.getHandle(stopped.workflow_id!).terminate('terminated by hand in a test');
    expect((await rig.task(id)).workflow_closed).toBe('TERMINATED');

    const created = await rig.op.post(`/api/tasks/${id}/resolve`, { outcome: 'created', pdd_order_no: 'PO-NONE' });
    expect(created.status).toBe(409);
    expect(created.body).toMatchObject({ error: { code: 'ACTION_NOT_ALLOWED' } });
    expect((await rig.task(id)).status).toBe('NEEDS_MANUAL');

    const notCreated = await rig.op.post(`/api/tasks/${id}/resolve`, { outcome: 'not_created' });
    expect(notCreated.status).toBe(200);
    expect(notCreated.body).toMatchObject({ status: 'DRAFT' });
    expect((await auditRows(id)).filter((a) => a.action === 'task.repaired')).toHaveLength(1);
    expect(rig.orders()).toHaveLength(0);
  });

  it('标记已付款 sent twice with one Idempotency-Key: one transition, the same answer', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL']);
    expect(t.status).toBe('WAITING_PAYMENT');
    const key = `mark-paid:v${t.version}`;
    const [a, b] = await Promise.all([
      rig.op.post(`/api/tasks/${id}/mark-paid`, undefined, { headers: { 'idempotency-key': key } }),
      rig.op.post(`/api/tasks/${id}/mark-paid`, undefined, { headers: { 'idempotency-key': key } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await rig.waitFor(id, ['SUCCEEDED']);
    // a retry after it finished gets the same answer, not a refusal
    const again = await rig.op.post(`/api/tasks/${id}/mark-paid`, undefined, { headers: { 'idempotency-key': key } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'SUCCEEDED' });
    expect((await auditRows(id)).filter((r) => r.action === 'task.succeeded')).toHaveLength(1);
  });

  it('a revoked phone claims nothing: its worker stops polling with a clear log line, and the purchase goes to an active phone', async () => {
    await rig.stopWorker();
    await revokeDeviceCredential(rig.admin.db, { kind: 'system', name: 'test' }, rig.device.deviceId);
    const lines: string[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) }),
    );
    const worker = async (deviceId: string, token: string, dataDir: string, logger = log) => {
      const w = await startDeviceWorker({
        deviceId,
        serial: rig.serial,
        adb: { host: '127.0.0.1', port: rig.sim.adbPort, timeouts: { reconnectMs: 1_500 } },
        dataDir,
        temporal: { address: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS as string, namespace: rig.admin.namespace },
        admin: { url: rig.admin.url, token },
        log: logger,
        timing: FAST_TIMING,
        claimCheckIntervalMs: 1_000,
      });
      await w.ready;
      return w;
    };
    const revoked = await worker(rig.device.deviceId, rig.device.token, rig.dataDir);
    try {
      // Off the devices queue: its poller either never started (the 401 came first) or stopped.
      const count = (text: string) => lines.filter((l) => l.includes(text)).length;
      for (let i = 0; i < 1_200; i++) {
        if (count('device token revoked') > 0 && count('idle: polling for claims') <= count('not polling for claims'))
          break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(count('device token revoked')).toBeGreaterThan(0);
      expect(count('idle: polling for claims')).toBeLessThanOrEqual(count('not polling for claims'));
      const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
      // the claim is waiting on the devices queue, where only the revoked worker was ever polling
      const fresh = await issueTestDevice(rig.admin, 'active phone');
      const active = await worker(fresh.deviceId, fresh.token, tempDataDir('device-active'), pino({ level: 'silent' }));
      try {
        const t = await rig.waitFor(id, ['DRY_RUN_PASSED', 'NEEDS_MANUAL']);
        expect(t.status).toBe('DRY_RUN_PASSED');
        expect(t.device_id).toBe(fresh.deviceId);
        const attempts = await rig.admin.db
          .selectFrom('purchase_attempts')
          .select('device_id')
          .where('task_id', '=', id)
          .execute();
        expect(attempts).toEqual([{ device_id: fresh.deviceId }]);
      } finally {
        await active.stop();
      }
    } finally {
      await revoked.stop();
    }
  });
});
