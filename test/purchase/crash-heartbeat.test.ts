import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client, Connection } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createPurchaseActivities } from '../../activities/device/purchase';
import type { DeviceContext } from '../../activities/device/context';
import { AdbDevice } from '../../device-worker/adb/adb-device';
import { ArtifactStore } from '../../device-worker/artifacts';
import { DeviceLedger } from '../../device-worker/ledger/ledger';
import { SubmissionLedger } from '../../device-worker/ledger/submissions';
import type { DeviceClaim, FinalPanelReading, PurchaseTarget } from '../../domain/contracts/device-activities';
import { sharedTemporal, tempDataDir, testLogger } from '../harness';
import { expectInvariants, poll, sleep } from './crash-helpers';
import { BLACK_M, FAST_TIMING, startPurchaseRig, type PurchaseRig } from './setup';
import { temporalDataConverter } from '../../temporal/codec';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Heartbeats, cancellation and orphan claims on the whole stack (real Temporal, admin, device
 * worker, simulator): a phone host killed in prepare is noticed within the heartbeat timeout, an
 * operator's cancel stops the phone, a claim whose reply was lost is freed while its workflow
 * runs on, and submitOnce with too little time left taps nothing. Every case keeps the
 * purchase's invariants (≤ 1 order, ≤ 1 submit tap, 0 payment taps per authorization).
 */
describe('heartbeats, cancel and orphan claims on the real stack', () => {
  let rig: PurchaseRig;
  let client: Client;
  /** every ADB command the phone received (shell and sync): the phone's activity log */
  let commands = 0;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    rig = await startPurchaseRig();
    client = new Client({
      dataConverter: temporalDataConverter(),
      connection: await Connection.connect({ address: sharedTemporal().address }),
      namespace: rig.admin.namespace,
    });
    const phone = rig.sim.phone(rig.serial);
    const count = phone.countCommand.bind(phone);
    phone.countCommand = () => {
      commands += 1;
      count();
    };
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await client?.connection.close();
    await rig?.close();
  });
  beforeEach(async () => {
    rig.onSubmitTap(null);
    await rig.resetPhone();
    if (!rig.worker) await rig.startWorker();
    // a captcha stop puts the phone on 需处理 until resumed
    await rig.resumePhone();
  });

  const slowPhone = () => rig.sim.phone(rig.serial).setFaults({ latency: 'realistic', seed: 7 });
  const workflowOf = async (taskId: string) => {
    const t = await rig.admin.db
      .selectFrom('tasks')
      .select(['authorization_id'])
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    return client.workflow.getHandle(`purchase/${taskId}/${t.authorization_id}`);
  };
  const ledger = () =>
    new DeviceLedger(path.join(rig.dataDir, 'device', rig.device.deviceId, 'ledger.db'), rig.device.deviceId);
  const openClaim = () => {
    const l = ledger();
    try {
      return l.openClaim();
    } finally {
      l.close();
    }
  };

  it('an operator cancel during prepare stops the phone within seconds: CANCELED, the phone gets no more commands, the claim is closed', async () => {
    slowPhone();
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    // prepare is on the phone: the goods opened and at least one tap landed
    await poll(async () => rig.taps().length >= 1, 60_000, 50);
    const res = await rig.op.post(`/api/tasks/${id}/cancel`);
    expect(res.status).toBe(200);
    await rig.waitFor(id, ['CANCELED'], 30_000);
    // the running prepare hears the cancel at its next heartbeat and stops at the next safe point;
    // then the release runs (its own activity) and the phone is idle
    await poll(async () => openClaim() === null, 30_000, 100);
    const after = { commands, taps: rig.taps().length };
    await sleep(5_000);
    expect(commands).toBe(after.commands);
    expect(rig.taps().length).toBe(after.taps);
    expect(rig.submitTaps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
    expect(rig.paymentTaps()).toHaveLength(0);
    // the prepare activity ended as cancelled, not as a phone fault the workflow would retry
    const h = await workflowOf(id);
    const history = await h.fetchHistory();
    const prepareEnds = (history.events ?? []).filter(
      (e) =>
        e.activityTaskCanceledEventAttributes ||
        e.activityTaskFailedEventAttributes ||
        e.activityTaskTimedOutEventAttributes,
    );
    expect(prepareEnds.some((e) => e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes)).toBe(
      false,
    );
    rig.sim.phone(rig.serial).setFaults({});
  });

  it('a phone host SIGKILLed in prepare is noticed within the heartbeat timeout: NEEDS_MANUAL DEVICE_ERROR, not retried, nothing tapped to submit', async () => {
    await rig.stopWorker();
    slowPhone();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'workers/main-device-worker.ts'),
        '--device-id',
        rig.device.deviceId,
        '--serial',
        rig.serial,
        '--adb-port',
        String(rig.sim.adbPort),
        '--data-dir',
        rig.dataDir,
        '--admin-url',
        rig.admin.url,
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          CMAUTOBUY_TEMPORAL_ADDRESS: sharedTemporal().address,
          CMAUTOBUY_TEMPORAL_NAMESPACE: rig.admin.namespace,
          CMAUTOBUY_DEVICE_TOKEN: rig.device.token,
        },
      },
    );
    children.push(child);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    await poll(async () => out.includes('DEVICE WORKER READY'), 60_000, 100).catch(() => {
      throw new Error(`device worker did not start:\n${out}`);
    });

    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    await poll(async () => rig.taps().length >= 1, 60_000, 50);
    child.kill('SIGKILL');
    const killedAt = Date.now();
    const tapsAtKill = rig.taps().length;

    // startToClose of prepare is 5 minutes; the heartbeat timeout (30 s) ends it long before
    const t = await rig.waitFor(id, ['NEEDS_MANUAL'], 120_000);
    expect(t.reason_code).toBe('DEVICE_ERROR');
    expect(JSON.stringify(t.attempt)).toMatch(/heartbeat/i);
    expect(Date.now() - killedAt).toBeLessThan(5 * 60_000);
    expect(rig.taps().length).toBe(tapsAtKill);
    await expectInvariants(rig, id);
    expect(rig.submitTaps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
    const h = await workflowOf(id);
    const history = await h.fetchHistory();
    const prepares = (history.events ?? []).filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'preparePurchase',
    );
    expect(prepares).toHaveLength(1);

    // the host comes back: the workflow's release (retried all along) closes the claim
    rig.sim.phone(rig.serial).setFaults({});
    await rig.startWorker();
    await poll(async () => openClaim() === null, 90_000, 200);
    expect((await h.describe()).status.name).toBe('RUNNING');
  });

  it('a lost claim reply (the host recorded the claim, then died before answering) frees the phone while the workflow still runs', async () => {
    // a purchase parked in NEEDS_MANUAL: its workflow runs on, holding no phone
    rig.sim.phone(rig.serial).setFaults({ captcha_on: 'open' });
    const parked = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    await rig.waitFor(parked, ['NEEDS_MANUAL'], 60_000);
    rig.sim.phone(rig.serial).setFaults({});
    // the slider stays on the phone until someone clears it: 处理完毕，继续 reads it first
    await rig.resetPhone();
    await rig.resumePhone();
    const h = await workflowOf(parked);
    await poll(async () => openClaim() === null, 30_000, 100);
    const { runId } = await h.describe();

    // the host commits a claim for that workflow and dies before its reply leaves; a minute later it is back
    await rig.stopWorker();
    const l = ledger();
    const lost = l.claim(h.workflowId, runId);
    l.close();
    // while a reply may still be on its way (the claim is younger than a minute) the host does not ask
    await rig.startWorker();
    await sleep(4_000);
    expect(openClaim()?.claim_id).toBe(lost.claim_id);
    await rig.stopWorker();
    const db = new Database(path.join(rig.dataDir, 'device', rig.device.deviceId, 'ledger.db'));
    db.prepare('UPDATE claims SET claimed_at = ? WHERE claim_id = ?').run(
      new Date(Date.now() - 120_000).toISOString().slice(0, 19) + 'Z',
      lost.claim_id,
    );
    db.close();
    await rig.startWorker();

    await poll(async () => openClaim() === null, 30_000, 200);
    const closed = (() => {
      const x = ledger();
      try {
        return x.claims().find((c) => c.claim_id === lost.claim_id);
      } finally {
        x.close();
      }
    })();
    expect(closed?.release_reason).toBe('workflow no longer holds the claim');
    expect((await h.describe()).status.name).toBe('RUNNING');

    // the phone is free: the next purchase gets it and finishes with one order
    const next = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(next, ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL'], 90_000);
    expect(t.status).toBe('WAITING_PAYMENT');
    await expectInvariants(rig, next);
    expect(rig.orders()).toHaveLength(1);
  });

  it('submitOnce with less than its reserve of start-to-close time left taps nothing and writes no ledger row', async () => {
    // the phone on the final panel, prepared by the real activity
    await rig.stopWorker();
    const dataDir = tempDataDir('late-submit');
    const deviceId = 'late-submit';
    const deviceLedger = new DeviceLedger(path.join(dataDir, 'ledger.db'), deviceId);
    const submissions = new SubmissionLedger(path.join(dataDir, 'ledger.db'));
    const adb = new AdbDevice({ host: '127.0.0.1', port: rig.sim.adbPort, serial: rig.serial });
    const ctx: DeviceContext = {
      deviceId,
      taskQueue: `device/${deviceId}`,
      adb,
      ledger: deviceLedger,
      artifacts: new ArtifactStore(path.join(dataDir, 'artifacts'), 1),
      timing: { ...FAST_TIMING, waitTimeoutMs: 30_000 },
      log: testLogger('late-submit'),
      onClaimed: () => undefined,
      onReleased: () => undefined,
    };
    try {
      const row = deviceLedger.claim('wf-late', 'run-late');
      const claim: DeviceClaim = {
        claim_id: row.claim_id,
        device_id: deviceId,
        task_queue: ctx.taskQueue,
        claimed_at: row.claimed_at,
      };
      const target: PurchaseTarget = {
        taskId: 'task-late',
        authorizationId: 'auth-late',
        attemptId: 'att-late',
        goodsId: BLACK_M.goodsId,
        goodsUrl: `https://mobile.yangkeduo.com/goods.html?goods_id=${BLACK_M.goodsId}`,
        options: BLACK_M.options,
        quantity: 1,
        maxTotalPriceCent: 2000,
        mode: 'live',
      };
      const activities = createPurchaseActivities(ctx, { submissions, evidence: null });
      const info = { workflowExecution: { workflowId: 'wf-late', runId: 'run-late' } };
      const prepared = (await new MockActivityEnvironment(info).run(activities.preparePurchase, { claim, target })) as {
        ok: true;
        reading: FinalPanelReading;
      };
      expect(prepared.ok).toBe(true);
      const tapsBefore = rig.taps().length;

      // scheduled 45 s ago with a minute to run: 15 s left, less than the 20 s reserve
      const late = new MockActivityEnvironment({
        ...info,
        startToCloseTimeoutMs: 60_000,
        currentAttemptScheduledTimestampMs: Date.now() - 45_000,
      });
      await expect(
        late.run(activities.submitOnce, { claim, target, submissionId: 'sub-late', expected: prepared.reading }),
      ).rejects.toMatchObject({ type: 'SUBMIT_REFUSED' });
      expect(rig.taps().length).toBe(tapsBefore);
      expect(rig.submitTaps()).toHaveLength(0);
      expect(submissions.get(target.authorizationId)).toBeNull();
      expect(rig.orders()).toHaveLength(0);

      // the same call with its time ahead of it taps once
      const onTime = new MockActivityEnvironment({
        ...info,
        startToCloseTimeoutMs: 60_000,
        currentAttemptScheduledTimestampMs: Date.now(),
      });
      await onTime.run(activities.submitOnce, { claim, target, submissionId: 'sub-late', expected: prepared.reading });
      expect(rig.submitTaps()).toHaveLength(1);
      expect(rig.orders()).toHaveLength(1);
    } finally {
      deviceLedger.close();
      submissions.close();
    }
  });
});
