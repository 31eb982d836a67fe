import { parseDeviceWorkerArgs } from '../../device-worker/args';
import { startDeviceWorker, type DeviceWorkerHandle } from '../../workers/device';
import { testLogger } from '../harness';
import { BLACK_M, FAST_TIMING, startPurchaseRig, type PurchaseRig } from '../purchase/setup';
import { parsePrometheusText, valueOf, type Scrape } from './prom-text';

/**
 * A device worker's own metrics (docs/operations.md "Metrics"), on a listener of its own: what
 * the phone was asked to do, counted from the same numbers the activities report.
 */
describe('device worker metrics', () => {
  let rig: PurchaseRig;
  let worker: DeviceWorkerHandle;
  let dumpsServed = 0;

  const scrape = async (): Promise<{ text: string; parsed: Scrape }> => {
    const res = await fetch(worker.metricsUrl!);
    expect(res.status).toBe(200);
    const text = await res.text();
    return { text, parsed: parsePrometheusText(text) };
  };
  const sum = (s: Scrape, name: string) => s.samples.filter((x) => x.name === name).reduce((a, x) => a + x.value, 0);

  beforeAll(async () => {
    rig = await startPurchaseRig({ withWorker: false });
    const app = rig.sim.phone(rig.serial).app;
    const dump = app.dump.bind(app);
    app.dump = () => {
      dumpsServed += 1;
      return dump();
    };
    worker = await startDeviceWorker({
      deviceId: rig.device.deviceId,
      serial: rig.serial,
      adb: { host: '127.0.0.1', port: rig.sim.adbPort },
      dataDir: rig.dataDir,
      temporal: { address: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS!, namespace: rig.admin.namespace },
      admin: { url: rig.admin.url, token: rig.device.token },
      log: testLogger('device-worker'),
      timing: FAST_TIMING,
      claimCheckIntervalMs: 1_000,
      metrics: { host: '127.0.0.1', port: 0 },
    });
    await worker.ready;
  });
  afterAll(async () => {
    await worker?.stop();
    await rig?.close();
  });

  it('is served on loopback only when asked for, and answers nothing but /metrics', async () => {
    expect(worker.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const other = await fetch(worker.metricsUrl!.replace(/\/metrics$/, '/'));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('shows the dumps and taps of a prepare, as many as the phone served, by activity', async () => {
    await rig.resetPhone();
    const before = (await scrape()).parsed;
    const dumpsBefore = dumpsServed;
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    expect((await rig.waitFor(id, ['DRY_RUN_PASSED', 'NEEDS_MANUAL'])).status).toBe('DRY_RUN_PASSED');
    const { text, parsed: after } = await scrape();

    const prepareDumps =
      valueOf(after, 'cmautobuy_device_dumps_total', { activity: 'preparePurchase' }) -
      valueOf(before, 'cmautobuy_device_dumps_total', { activity: 'preparePurchase' });
    expect(prepareDumps).toBeGreaterThan(0);
    expect(sum(after, 'cmautobuy_device_dumps_total') - sum(before, 'cmautobuy_device_dumps_total')).toBe(
      dumpsServed - dumpsBefore,
    );
    expect(sum(after, 'cmautobuy_device_taps_total') - sum(before, 'cmautobuy_device_taps_total')).toBe(
      rig.taps().length,
    );
    const prepareRuns = (s: Scrape) =>
      valueOf(s, 'cmautobuy_device_activity_duration_seconds_count', { activity: 'preparePurchase', outcome: 'ok' });
    expect(prepareRuns(after) - prepareRuns(before)).toBe(1);
    const claims = (s: Scrape) =>
      valueOf(s, 'cmautobuy_device_activity_duration_seconds_count', { activity: 'claimDevice', outcome: 'ok' });
    expect(claims(after) - claims(before)).toBe(1);
    for (const privateValue of [id, rig.device.token, rig.device.deviceId, BLACK_M.goodsId])
      expect(text).not.toContain(privateValue);
  });

  it('counts a failed activity by its device error code, and ADB failures apart', async () => {
    const before = (await scrape()).parsed;
    // a phone already gone from ADB takes no claim, so it goes after the claim, a few commands in
    rig.sim.phone(rig.serial).setFaults({ disconnect_after_commands: 3 });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    // the phone is gone: prepare fails on ADB
    for (let i = 0; i < 300; i++) {
      const now = (await scrape()).parsed;
      if (sum(now, 'cmautobuy_device_adb_errors_total') > sum(before, 'cmautobuy_device_adb_errors_total')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    rig.sim.phone(rig.serial).clearFaults();
    await rig.waitFor(id, ['DRY_RUN_PASSED', 'NEEDS_MANUAL']);
    const after = (await scrape()).parsed;
    expect(
      valueOf(after, 'cmautobuy_device_adb_errors_total', { code: 'ADB_DISCONNECTED' }) -
        valueOf(before, 'cmautobuy_device_adb_errors_total', { code: 'ADB_DISCONNECTED' }),
    ).toBeGreaterThan(0);
    expect(
      valueOf(after, 'cmautobuy_device_activity_failures_total', {
        activity: 'preparePurchase',
        code: 'ADB_DISCONNECTED',
      }) -
        valueOf(before, 'cmautobuy_device_activity_failures_total', {
          activity: 'preparePurchase',
          code: 'ADB_DISCONNECTED',
        }),
    ).toBeGreaterThan(0);
  });
});

describe('device worker metrics options', () => {
  const REQUIRED = ['--device-id', 'dev-1', '--serial', 'sim-phone-1'];
  it('serves nothing unless a port is given; a flag wins over its variable; loopback by default', () => {
    expect(parseDeviceWorkerArgs(REQUIRED, {})).toMatchObject({ metrics: undefined, temporalMetrics: undefined });
    expect(parseDeviceWorkerArgs(REQUIRED, { CMAUTOBUY_DEVICE_METRICS_PORT: '0' })).toMatchObject({
      metrics: undefined,
    });
    expect(
      parseDeviceWorkerArgs(REQUIRED, {
        CMAUTOBUY_DEVICE_METRICS_PORT: '9470',
        CMAUTOBUY_TEMPORAL_METRICS_PORT: '9471',
      }),
    ).toMatchObject({
      metrics: { host: '127.0.0.1', port: 9470 },
      temporalMetrics: { host: '127.0.0.1', port: 9471 },
    });
    expect(
      parseDeviceWorkerArgs([...REQUIRED, '--metrics-port', '9480', '--metrics-host', '10.0.0.5'], {
        CMAUTOBUY_DEVICE_METRICS_PORT: '9470',
      }),
    ).toMatchObject({
      metrics: { host: '10.0.0.5', port: 9480 },
    });
    expect(() => parseDeviceWorkerArgs([...REQUIRED, '--metrics-port', 'many'], {})).toThrow(/--metrics-port/);
  });
});
