import { Writable } from 'node:stream';
import pino from 'pino';
import { revokeDeviceCredential } from '../../admin/auth/device-credentials';
import { purchaseActivities } from '../../activities/admin/purchase';
import { attentionReasonZh, type DeviceView } from '../../domain/devices';
import { startPhoneSim, type PhoneSim } from '../../sim/phone';
import { startDeviceWorker, type DeviceWorkerHandle } from '../../workers/device';
import {
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  tempDataDir,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';
import { FAST_TIMING, releaseAppVersionInTestDb } from '../purchase/setup';
import { operatorSteps, until } from '../phone-host/operator-steps';

jest.setTimeout(300_000);

/**
 * Two phones, one queue (docs/api.md §12.1): a phone that needs a person — logged out,
 * paused, gone from ADB, revoked — takes no claim; the task waits and the other phone
 * takes it. Phone A's worker logs are kept, so a test can wait for A to have refused a claim.
 */
describe('phones that need help stop claiming', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let sim: PhoneSim;
  let a: TestDevice;
  let b: TestDevice;
  const workers = new Map<string, DeviceWorkerHandle>();
  const linesA: string[] = [];
  const serialOf = new Map<string, string>();

  async function startWorker(dev: TestDevice, statusIntervalMs: number): Promise<void> {
    const log =
      dev === a
        ? pino(
            { level: 'info' },
            new Writable({ write: (c: Buffer, _e, done) => void (linesA.push(c.toString()), done()) }),
          )
        : pino({ level: 'silent' });
    const w = await startDeviceWorker({
      deviceId: dev.deviceId,
      serial: serialOf.get(dev.deviceId)!,
      adb: { host: '127.0.0.1', port: sim.adbPort, timeouts: { reconnectMs: 1_500 } },
      dataDir: tempDataDir('device'),
      temporal: { address: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS as string, namespace: admin.namespace },
      admin: { url: admin.url, token: dev.token },
      log,
      timing: FAST_TIMING,
      claimCheckIntervalMs: 1_000,
      statusIntervalMs,
    });
    await w.ready;
    workers.set(dev.deviceId, w);
  }
  async function stopWorker(dev: TestDevice): Promise<void> {
    await workers.get(dev.deviceId)?.stop();
    workers.delete(dev.deviceId);
  }

  const deviceView = async (dev: TestDevice): Promise<DeviceView | undefined> =>
    ((await op.get('/api/devices')).body as DeviceView[]).find((d) => d.device_id === dev.deviceId);
  const { task, waitFor, dryRun } = operatorSteps(
    () => op,
    () => admin.db,
  );
  const attemptsOn = async (dev: TestDevice) =>
    (
      await admin.db.selectFrom('purchase_attempts').select('task_id').where('device_id', '=', dev.deviceId).execute()
    ).map((r) => r.task_id);
  const refusedByA = (text: string) => linesA.some((l) => l.includes('takes no claim now') && l.includes(text));
  const audit = (action: string, dev: TestDevice) =>
    admin.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action)
      .where('target_id', '=', dev.deviceId)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    admin = await startTestAdmin();
    await releaseAppVersionInTestDb(admin);
    op = await loginOperator(admin);
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['phone-a', 'phone-b'] });
    a = await issueTestDevice(admin, 'A');
    b = await issueTestDevice(admin, 'B');
    serialOf.set(a.deviceId, 'phone-a');
    serialOf.set(b.deviceId, 'phone-b');
    await startWorker(a, 1_000);
    await startWorker(b, 1_000);
  });
  afterAll(async () => {
    for (const w of workers.values()) await w.stop().catch(() => undefined);
    await sim?.close();
    await admin?.close();
  });

  it('a logged-out phone is 需处理 and takes no claim until resumed; the other keeps buying; pause and resume are audited', async () => {
    // B paused: the first task can only go to A, whose PDD app shows its login page
    const paused = await op.post(`/api/devices/${b.deviceId}/pause`);
    expect(paused.status).toBe(200);
    expect((await deviceView(b))?.attention).toMatchObject({ reason_code: 'PAUSED_BY_OPERATOR' });
    sim.phone('phone-a').setFaults({ page_on: { open: 'login' } });
    const t1 = await dryRun();
    expect(await waitFor(t1, ['NEEDS_MANUAL', 'DRY_RUN_PASSED'])).toMatchObject({
      status: 'NEEDS_MANUAL',
      reason_code: 'LOGIN_REQUIRED',
      device_id: a.deviceId,
    });
    expect((await deviceView(a))?.attention).toMatchObject({ reason_code: 'LOGIN_REQUIRED' });
    sim.phone('phone-a').clearFaults();

    // The next task waits — A refuses it, B is paused — then B takes it and the one after it.
    const t2 = await dryRun();
    await until(async () => refusedByA('LOGIN_REQUIRED'), Boolean, 'A refusing claims');
    expect((await task(t2)).status).toBe('PENDING');
    expect((await op.post(`/api/devices/${b.deviceId}/resume`)).status).toBe(200);
    const t3 = await dryRun();
    for (const id of [t2, t3])
      expect(await waitFor(id, ['NEEDS_MANUAL', 'DRY_RUN_PASSED'])).toMatchObject({
        status: 'DRY_RUN_PASSED',
        device_id: b.deviceId,
      });
    expect(await attemptsOn(a)).toEqual([t1]);
    expect((await deviceView(a))?.attention).toMatchObject({ reason_code: 'LOGIN_REQUIRED' });

    // 恢复 on A (audited with what it cleared), 暂停 on B: the next task is A's again.
    const resumed = await op.post(`/api/devices/${a.deviceId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ attention: null, cleared: { reason_code: 'LOGIN_REQUIRED' } });
    expect((await deviceView(a))?.attention).toBeNull();
    expect((await op.post(`/api/devices/${b.deviceId}/pause`)).status).toBe(200);
    const t4 = await dryRun();
    expect(await waitFor(t4, ['NEEDS_MANUAL', 'DRY_RUN_PASSED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: a.deviceId,
    });
    expect((await op.post(`/api/devices/${b.deviceId}/resume`)).status).toBe(200);

    expect(await audit('device.pause', b)).toHaveLength(2);
    expect(await audit('device.resume', b)).toHaveLength(2);
    const resumeA = await audit('device.resume', a);
    expect(resumeA).toHaveLength(1);
    expect(resumeA[0]).toMatchObject({ actor_kind: 'operator', actor: 'admin' });
    expect(JSON.parse(resumeA[0]!.details_json!)).toMatchObject({ reason_code: 'LOGIN_REQUIRED', task_id: t1 });
  });

  it('a stop recorded as a risk check (or a login page, a captcha, a screen never idle) puts its phone on 需处理; other stops do not', async () => {
    const [attempt] = await admin.db
      .selectFrom('purchase_attempts')
      .select('id')
      .where('device_id', '=', a.deviceId)
      .orderBy('started_at', 'desc')
      .execute();
    const acts = purchaseActivities(admin.db);
    await acts.recordAttemptProgress({
      attemptId: attempt!.id,
      step: 'stopped',
      failure: { code: 'OPTION_NOT_FOUND', detail: 'no such option' },
    });
    expect((await deviceView(a))?.attention).toBeNull();
    await acts.recordAttemptProgress({
      attemptId: attempt!.id,
      step: 'stopped',
      failure: { code: 'RISK_SMS', detail: 'the app asks for an SMS code' },
    });
    expect((await deviceView(a))?.attention).toMatchObject({ reason_code: 'RISK_SMS' });
    expect((await op.post(`/api/devices/${a.deviceId}/resume`)).status).toBe(200);
    expect((await deviceView(a))?.attention).toBeNull();
    // a screen that never goes idle on a phone without a running agent: a person enables the agent first
    await acts.recordAttemptProgress({
      attemptId: attempt!.id,
      step: 'stopped',
      failure: { code: 'HIERARCHY_UNAVAILABLE', detail: 'the screen never went idle' },
    });
    expect((await deviceView(a))?.attention).toMatchObject({ reason_code: 'HIERARCHY_UNAVAILABLE' });
    expect(attentionReasonZh('HIERARCHY_UNAVAILABLE')).toContain('UiAutomator2');
    expect((await op.post(`/api/devices/${a.deviceId}/resume`)).status).toBe(200);
    expect((await deviceView(a))?.attention).toBeNull();
  });

  it('pause and resume refuse an unknown device and a malformed id, and write nothing', async () => {
    const pauseRows = () =>
      admin.db.selectFrom('audit_log').select('id').where('action', 'in', ['device.pause', 'device.resume']).execute();
    const before = (await pauseRows()).length;
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await op.post(`/api/devices/${unknown}/pause`)).body).toMatchObject({
      error: { code: 'DEVICE_NOT_FOUND' },
    });
    expect((await op.post(`/api/devices/${unknown}/resume`)).status).toBe(404);
    expect((await op.post('/api/devices/nope/pause')).status).toBe(400);
    expect((await pauseRows()).length).toBe(before);
    expect(await admin.db.selectFrom('device_attention').selectAll().execute()).toEqual([]);
  });

  it('a phone gone from ADB shows offline and takes no claim; the task goes to the other phone', async () => {
    expect((await deviceView(a))?.online).toBe(true);
    sim.phone('phone-a').setFaults({ disconnect_after_commands: 0 });
    await until(
      () => deviceView(a),
      (d) => d?.online === false,
      'A offline',
    );
    expect((await op.post(`/api/devices/${b.deviceId}/pause`)).status).toBe(200);
    const t = await dryRun();
    await until(async () => refusedByA('does not answer on ADB'), Boolean, 'A refusing claims for ADB');
    expect((await task(t)).status).toBe('PENDING');
    expect((await op.post(`/api/devices/${b.deviceId}/resume`)).status).toBe(200);
    expect(await waitFor(t, ['NEEDS_MANUAL', 'DRY_RUN_PASSED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: b.deviceId,
    });
    expect(await attemptsOn(a)).not.toContain(t);
    sim.phone('phone-a').clearFaults();
    await until(
      () => deviceView(a),
      (d) => d?.online === true,
      'A back online',
    );
  });

  it('a revoked phone refuses the claim it is offered: the task stays PENDING and the other phone takes it', async () => {
    // A checks only inside a claim from now on, so the refusal below is the claim's own check
    await stopWorker(a);
    linesA.length = 0;
    await startWorker(a, 600_000);
    // registered and polling before the revocation, so the claim below reaches A and its own check
    const logged = (text: string) => linesA.some((l) => l.includes(text));
    await until(
      async () =>
        logged('may take claims again') && logged('registered with the admin') && logged('idle: polling for claims'),
      Boolean,
      'A registered and claimable',
    );
    expect((await op.post(`/api/devices/${b.deviceId}/pause`)).status).toBe(200);
    await revokeDeviceCredential(admin.db, { kind: 'system', name: 'test' }, a.deviceId);
    const t = await dryRun();
    await until(async () => refusedByA('revoked'), Boolean, 'A refusing the claim as revoked').catch((err) => {
      throw new Error(`${String(err)}\n${linesA.map((l) => l.slice(0, 300)).join('')}`);
    });
    expect((await task(t)).status).toBe('PENDING');
    expect(await attemptsOn(a)).not.toContain(t);
    expect((await op.post(`/api/devices/${b.deviceId}/resume`)).status).toBe(200);
    expect(await waitFor(t, ['NEEDS_MANUAL', 'DRY_RUN_PASSED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: b.deviceId,
    });
    expect(await attemptsOn(a)).not.toContain(t);
  });
});
