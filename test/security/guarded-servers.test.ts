import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import { startSybSim, type SybSim } from '../../sim/syb/server';
import { allowedHostNames, checkApiRequest, hostNameOf } from '../../platform/http-guard';
import { tightenTree } from '../../platform/private-files';
import { baseEnvironment, SupervisedChild, type RestartEvent } from '../../platform/children';
import { tempDataDir } from '../harness';
import { rawRequest, requestHead } from './raw-http';

describe('the phone simulator control port', () => {
  let sim: PhoneSim;
  let control: string;
  beforeAll(async () => {
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['sim-guard-1'] });
    control = `http://127.0.0.1:${sim.controlPort}`;
  });
  afterAll(async () => {
    await sim?.close();
  });

  const resetWith = (headers: Record<string, string>, body = '') =>
    rawRequest(
      control,
      requestHead('POST', '/devices/sim-guard-1/reset', control, {
        ...headers,
        'Content-Length': Buffer.byteLength(body),
      }),
      Buffer.from(body),
    );

  it('refuses a cross-origin text/plain POST (415) and any request from another site (403)', async () => {
    expect((await resetWith({ 'Content-Type': 'text/plain' }, '{}')).status).toBe(415);
    expect((await resetWith({ 'Content-Type': 'application/x-www-form-urlencoded' }, 'a=1')).status).toBe(415);
    expect((await resetWith({ Origin: 'http://evil.example' })).status).toBe(403);
    expect((await resetWith({ Origin: 'null' })).status).toBe(403);
  });

  it('answers only to loopback host names (DNS rebinding)', async () => {
    const asHost = (host: string) =>
      rawRequest(control, requestHead('GET', '/health', control, {}).replace(/^Host: .*$/m, `Host: ${host}`));
    expect((await asHost(`evil.example:${sim.controlPort}`)).status).toBe(421);
    expect((await asHost(`localhost:${sim.controlPort}`)).status).toBe(200);
  });

  it('still takes its own clients: JSON bodies, body-less POSTs, same-host origins', async () => {
    expect((await resetWith({ 'Content-Type': 'application/json' }, '{}')).status).toBe(200);
    expect((await resetWith({})).status).toBe(200);
    expect((await resetWith({ Origin: control })).status).toBe(200);
    expect((await rawRequest(control, requestHead('GET', '/devices/%E0%A4%A', control, {}))).status).toBe(400);
  });
});

describe('the 顺运宝 simulator', () => {
  let sim: SybSim;
  beforeAll(async () => {
    sim = await startSybSim({ port: 0 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const putShipments = (headers: Record<string, string>, body = '{"shipments":[]}') =>
    rawRequest(
      sim.url,
      requestHead('PUT', '/control/shipments', sim.url, { ...headers, 'Content-Length': Buffer.byteLength(body) }),
      Buffer.from(body),
    );

  it('its control API takes JSON from its own origin only, and keeps the data set otherwise', async () => {
    const before = await (await fetch(`${sim.url}/control/credentials`)).json();
    expect((await putShipments({ 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await putShipments({ 'Content-Type': 'application/json', Origin: 'http://evil.example' })).status).toBe(
      403,
    );
    expect((await putShipments({ 'Content-Type': 'application/json' })).status).toBe(200);
    expect(await (await fetch(`${sim.url}/control/credentials`)).json()).toEqual(before);
  });

  it('answers only to loopback host names, on the service paths too (DNS rebinding)', async () => {
    const port = new URL(sim.url).port;
    const asHost = (p: string, host: string) =>
      rawRequest(sim.url, requestHead('GET', p, sim.url, {}).replace(/^Host: .*$/m, `Host: ${host}`));
    expect((await asHost('/control/requests', `evil.example:${port}`)).status).toBe(421);
    expect((await asHost('/am/stock/list', `evil.example:${port}`)).status).toBe(421);
    expect((await asHost('/control/requests', `localhost:${port}`)).status).toBe(200);
  });
});

describe('platform/http-guard', () => {
  it('reads host names with ports, IPv6 brackets and case', () => {
    expect(hostNameOf('LocalHost:8080')).toBe('localhost');
    expect(hostNameOf('[::1]:8080')).toBe('::1');
    expect(hostNameOf(undefined)).toBe('');
    expect([...allowedHostNames('0.0.0.0', ['admin.example.com'])].sort()).toEqual([
      '127.0.0.1',
      '::1',
      'admin.example.com',
      'localhost',
    ]);
    expect(
      checkApiRequest(
        'POST',
        { host: 'localhost', 'content-type': 'application/json; charset=utf-8', 'content-length': '2' },
        allowedHostNames(undefined),
      ),
    ).toBeNull();
  });
});

describe('npm start plumbing', () => {
  it('gives children no secret from its own environment', () => {
    const env = baseEnvironment({
      PATH: '/bin',
      CMAUTOBUY_ADMIN_PASSWORD: 'secret-pw-1',
      CMAUTOBUY_DEVICE_TOKEN: 'tok',
      CMAUTOBUY_ADMIN_PORT: '1',
      AWS_SECRET_ACCESS_KEY: 'x',
    });
    expect(env).toEqual({ PATH: '/bin', CMAUTOBUY_ADMIN_PORT: '1' });
  });

  it('makes an existing data dir owner-only: files 0600, directories 0700', () => {
    const root = tempDataDir('modes');
    fs.mkdirSync(path.join(root, 'logs'), { mode: 0o755 });
    fs.writeFileSync(path.join(root, 'admin.db'), 'x', { mode: 0o644 });
    fs.writeFileSync(path.join(root, 'logs', 'admin.log'), 'x', { mode: 0o644 });
    fs.chmodSync(root, 0o755);
    tightenTree(root);
    const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);
    expect([
      mode(root),
      mode(path.join(root, 'logs')),
      mode(path.join(root, 'admin.db')),
      mode(path.join(root, 'logs', 'admin.log')),
    ]).toEqual(['700', '700', '600', '600']);
  });

  it('restarts a child that was killed, logs the restart, and stop() ends it for good', async () => {
    const dir = tempDataDir('supervised');
    const script = path.join(dir, 'child.js');
    fs.writeFileSync(script, "console.log('CHILD READY ' + process.pid); setInterval(() => {}, 1000);");
    const restarts: RestartEvent[] = [];
    const child = await SupervisedChild.start(
      {
        name: 'probe',
        command: process.execPath,
        args: [script],
        readyLine: /CHILD READY (\d+)/,
        logFile: path.join(dir, 'probe.out'),
      },
      { policy: { initialDelayMs: 10, maxDelayMs: 100, stableAfterMs: 60_000 }, onRestart: (e) => restarts.push(e) },
    );
    const firstPid = child.pid!;
    process.kill(firstPid, 'SIGKILL');
    for (let i = 0; i < 200 && (child.pid === firstPid || restarts.length === 0); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(restarts).toEqual([{ child: 'probe', exit: 'SIGKILL', restart: 1, delay_ms: 10 }]);
    const secondPid = child.pid!;
    expect(secondPid).not.toBe(firstPid);
    expect(() => process.kill(secondPid, 0)).not.toThrow();
    await child.stop();
    expect(() => execFileSync('kill', ['-0', String(secondPid)], { stdio: 'ignore' })).toThrow();
    expect(restarts).toHaveLength(1);
  });
});
