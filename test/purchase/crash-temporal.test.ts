import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../platform/network';
import { startDevServer, type DevServer } from '../../temporal/dev-server';
import { tempDataDir } from '../harness';
import { expectInvariants, poll, SETTLED, submissionRows } from './crash-helpers';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from './setup';
import { temporalDataConverter } from '../../temporal/codec';

/**
 * The purchase's invariants (docs/engineering.md) when the Temporal server goes away mid-purchase and comes back on
 * the same SQLite file. The file owns its server (the shared one must not be stopped under other
 * files); the admin and the device worker both point at it.
 */
describe('purchase invariants when the Temporal server restarts mid-purchase', () => {
  const NAMESPACE = 'crash';
  let server: DevServer | undefined;
  let rig: PurchaseRig;
  let start: () => Promise<DevServer>;

  beforeAll(async () => {
    const dir = tempDataDir('temporal-crash');
    const dbFile = path.join(dir, 'temporal.db');
    const port = await freePort();
    start = () =>
      startDevServer({ dbFile, namespace: NAMESPACE, port, uiPort: null, logFile: path.join(dir, 'temporal.log') });
    server = await start();
    // Claim checks run every second right through the outages: the worker keeps one at a time,
    // bounds it, and waits for it before closing its connection.
    rig = await startPurchaseRig({
      temporal: { address: server.address, namespace: NAMESPACE },
      claimCheckIntervalMs: 1_000,
    });
  });
  afterAll(async () => {
    await rig?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    rig.onSubmitTap(null);
    await rig.resetPhone();
  });

  /** The purchase workflow of the task is still open (or closed only in a terminal state). */
  const workflowOpen = async (taskId: string) => {
    const t = await rig.task(taskId);
    const connection = await Connection.connect({ address: server!.address });
    try {
      const d = await new Client({ dataConverter: temporalDataConverter(), connection, namespace: NAMESPACE }).workflow
        .getHandle(t.workflow_id as string)
        .describe();
      return d.status.name;
    } finally {
      await connection.close();
    }
  };

  /** How often the workflow scheduled submitOnce, and the attempt numbers it was started with. */
  const submitOnceRuns = async (taskId: string) => {
    const t = await rig.task(taskId);
    const connection = await Connection.connect({ address: server!.address });
    try {
      const history = await new Client({
        dataConverter: temporalDataConverter(),
        connection,
        namespace: NAMESPACE,
      }).workflow
        .getHandle(t.workflow_id as string)
        .fetchHistory();
      const events = history.events ?? [];
      const scheduledIds = events
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'submitOnce')
        .map((e) => String(e.eventId));
      const attempts = events
        .filter((e) => scheduledIds.includes(String(e.activityTaskStartedEventAttributes?.scheduledEventId ?? '')))
        .map((e) => e.activityTaskStartedEventAttributes?.attempt);
      return { scheduled: scheduledIds.length, attempts };
    } finally {
      await connection.close();
    }
  };

  it('server stopped while the phone prepares (before the fence), restarted on the same file: the purchase resumes, one tap, one order, one ledger row', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    await rig.waitForRow(id, ['ORDERING'], 30_000);
    await server!.stop();
    const tapsWhileDown = rig.submitTaps().length;
    // the server went down before the fence: no submission row, nothing tapped
    expect(await submissionRows(rig, id)).toHaveLength(0);
    expect(tapsWhileDown).toBe(0);
    server = await start();

    const t = await rig.waitFor(id, SETTLED, 150_000);
    await expectInvariants(rig, id);
    if (t.status === 'NEEDS_MANUAL') {
      // no tap without an explicit fence answer
      expect(rig.submitTaps()).toHaveLength(0);
      expect(rig.orders()).toHaveLength(0);
    } else {
      expect(['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED']).toContain(t.status);
      expect(rig.submitTaps()).toHaveLength(1);
      expect(rig.orders()).toHaveLength(1);
      expect(rig.submissionRows().filter((r) => r.task_id === id)).toHaveLength(1);
    }
    expect(await workflowOpen(id)).toBe('RUNNING');
    expect((await submitOnceRuns(id)).scheduled).toBeLessThanOrEqual(1);
  });

  it('server stopped the moment 提交订单 is tapped, restarted on the same file: submitOnce never runs twice, one tap, one order', async () => {
    let stopping: Promise<void> | null = null;
    rig.onSubmitTap(() => {
      stopping ??= server!.stop();
    });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    await poll(async () => stopping !== null, 30_000);
    await stopping;
    rig.onSubmitTap(null);
    expect(rig.submitTaps()).toHaveLength(1);
    server = await start();

    const t = await rig.waitFor(id, SETTLED, 150_000);
    expect(['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED']).toContain(t.status);
    await expectInvariants(rig, id);
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.orders()).toHaveLength(1);
    // the device ledger: exactly one submit for this authorization, and it was tapped
    const ledger = rig.submissionRows().filter((r) => r.task_id === id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]?.authorization_id).toBe(t.authorization?.id);
    expect(ledger[0]?.tapped_at).toBeTruthy();
    expect(rig.taps().at(-1)).toBe(rig.submitTaps()[0]);
    if (t.status === 'WAITING_PAYMENT') expect(t.pdd_order_no).toBe(rig.orders()[0]?.order_no);
    expect(await workflowOpen(id)).toBe('RUNNING');
    expect(await submitOnceRuns(id)).toEqual({ scheduled: 1, attempts: [1] });
  });

  it('server down for 20 s from the moment of the tap (workers keep retrying their answers): submitOnce is scheduled once and started once, one tap, one order', async () => {
    let stopping: Promise<void> | null = null;
    rig.onSubmitTap(() => {
      stopping ??= server!.stop();
    });
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
    await poll(async () => stopping !== null, 30_000);
    await stopping;
    rig.onSubmitTap(null);
    // longer than a workflow task completion is retried for (the admin worker gives that one up)
    await new Promise((r) => setTimeout(r, 20_000));
    server = await start();

    // had submitOnce's result been lost, its one attempt would time out (1 min) into a read-only reconcile
    const t = await rig.waitFor(id, SETTLED, 180_000);
    if (process.env.CRASH_DIAG)
      console.log('DIAG long outage', t.status, t.reason_code, JSON.stringify(t.attempt?.timeline));
    expect(['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED']).toContain(t.status);
    await expectInvariants(rig, id);
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.orders()).toHaveLength(1);
    expect(rig.submissionRows().filter((r) => r.task_id === id)).toHaveLength(1);
    expect(rig.taps().at(-1)).toBe(rig.submitTaps()[0]);
    if (t.status === 'WAITING_PAYMENT') expect(t.pdd_order_no).toBe(rig.orders()[0]?.order_no);
    expect(await workflowOpen(id)).toBe('RUNNING');
    expect(await submitOnceRuns(id)).toEqual({ scheduled: 1, attempts: [1] });
  });
});
