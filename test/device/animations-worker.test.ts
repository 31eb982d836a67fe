import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Adb from '@devicefarmer/adbkit';
import { SAVED_SCALES_FILE } from '../../device-worker/runtime/animations';
import { startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import type { DeviceWorkerHandle } from '../../workers/device';
import { allocateNamespace } from '../namespaces';
import { sharedTemporal, tempDataDir } from '../harness';
import { deviceWorker, FAST_TIMING, until } from './fixtures';

/**
 * A device worker turns its phone's animations off for as long as it holds the phone and puts
 * the phone's own scales back when it stops or a person takes the phone (runtime/animations.ts),
 * on the real Temporal server and the simulator. A fake admin answers the status checks.
 */
describe('device worker and the phone animation scales', () => {
  let sim: PhoneSim;
  let admin: http.Server;
  let adminUrl: string;
  let attention: { reason_code: string; since: string } | null = null;
  let worker: DeviceWorkerHandle | undefined;
  const dataDir = tempDataDir('animations-worker');
  const SERIAL = 'sim-anim-w';

  const scales = async (): Promise<string> => {
    const client = Adb.createClient({ host: '127.0.0.1', port: sim.adbPort });
    const stream = await client
      .getDevice(SERIAL)
      .shell(
        'settings get global window_animation_scale; settings get global transition_animation_scale; ' +
          'settings get global animator_duration_scale',
      );
    return (await Adb.util.readAll(stream)).toString('utf8');
  };
  const start = async (withAdmin = false) => {
    worker = await deviceWorker({
      deviceId: 'dev-anim',
      serial: SERIAL,
      adb: { host: '127.0.0.1', port: sim.adbPort, timeouts: { reconnectMs: 500 } },
      dataDir,
      temporal: { address: sharedTemporal().address, namespace: allocateNamespace() },
      timing: FAST_TIMING,
      statusIntervalMs: 200,
      ...(withAdmin ? { admin: { url: adminUrl, token: 'a'.repeat(64) } } : {}),
    });
  };
  const stop = async () => {
    await worker?.stop();
    worker = undefined;
  };

  const scalesTo = async (v: string) => {
    const client = Adb.createClient({ host: '127.0.0.1', port: sim.adbPort });
    await Adb.util.readAll(
      await client
        .getDevice(SERIAL)
        .shell(
          `settings put global window_animation_scale ${v} && settings put global transition_animation_scale ${v} && settings put global animator_duration_scale ${v}`,
        ),
    );
  };

  beforeAll(async () => {
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, latency: 'zero', phones: [SERIAL] });
    admin = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url !== '/api/device/status') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ claimable: attention === null, attention }));
      });
    });
    await new Promise<void>((r) => admin.listen(0, '127.0.0.1', r));
    adminUrl = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await stop();
    await sim?.close();
    await new Promise((r) => admin?.close(r));
  });
  beforeEach(async () => {
    sim.phone(SERIAL).reset();
    attention = null;
    await scalesTo('0.5');
  });
  it('0 while the worker runs, the phone own values after its stop', async () => {
    await start();
    await until('animations off', async () => (await scales()) === '0\n0\n0\n');
    await stop();
    expect(await scales()).toBe('0.5\n0.5\n0.5\n');
  });

  it('a worker whose stop could not reach the phone leaves the saved values for the next one, not the zeros', async () => {
    await start();
    await until('animations off', async () => (await scales()) === '0\n0\n0\n');
    const phone = sim.phone(SERIAL);
    phone.unplug();
    await stop();
    const saved = path.join(dataDir, 'device', 'dev-anim', SAVED_SCALES_FILE);
    expect(JSON.parse(fs.readFileSync(saved, 'utf8'))).toMatchObject({
      scales: { window_animation_scale: '0.5', transition_animation_scale: '0.5', animator_duration_scale: '0.5' },
    });
    phone.plugIn(0);
    await until('the phone back on ADB', async () => (await scales().catch(() => '')) === '0\n0\n0\n');
    await start();
    await until('animations off', async () => (await scales()) === '0\n0\n0\n');
    await stop();
    expect(await scales()).toBe('0.5\n0.5\n0.5\n');
    expect(fs.existsSync(saved)).toBe(false);
  });

  it('a paused phone gets its own values back, and 0 again once resumed', async () => {
    await start(true);
    await until('animations off', async () => (await scales()) === '0\n0\n0\n');
    attention = { reason_code: 'PAUSED_BY_OPERATOR', since: new Date().toISOString() };
    await until('own scales back while paused', async () => (await scales()) === '0.5\n0.5\n0.5\n');
    attention = null;
    await until('animations off again', async () => (await scales()) === '0\n0\n0\n');
    await stop();
    expect(await scales()).toBe('0.5\n0.5\n0.5\n');
  });
});
