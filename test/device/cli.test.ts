import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { defaultCatalog, startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import { AdminClient } from '../../device-worker/admin-client';
import { skusJsonSchema } from '../../domain/collect';
import { testLogger } from '../harness';
import { diffCollect } from './catalog-expect';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

async function device(args: string[]): Promise<{ code: number; out: unknown }> {
  try {
    const { stdout } = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'device-worker/cli.ts', ...args],
      { cwd: ROOT },
    );
    return { code: 0, out: JSON.parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: JSON.parse(e.stdout) };
  }
}

describe('npm run device -- collect', () => {
  let sim: PhoneSim;
  beforeAll(async () => {
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['sim-cli'] });
  });
  afterAll(async () => sim?.close());

  it('prints the skus_json of one goods', async () => {
    const { code, out } = await device([
      'collect',
      '--serial',
      'sim-cli',
      '--goods',
      '937122477375',
      '--adb-port',
      String(sim.adbPort),
    ]);
    expect(code).toBe(0);
    expect(diffCollect(defaultCatalog().goods[0]!, skusJsonSchema.parse(out))).toEqual([]);
  });

  it('answers errors as JSON with a non-zero exit', async () => {
    const missing = await device(['collect', '--goods', '937122477375', '--adb-port', String(sim.adbPort)]);
    expect(missing.code).not.toBe(0);
    expect(missing.out).toMatchObject({ error: { code: 'ADB_SERIAL_INVALID' } });
    const delisted = await device([
      'collect',
      '--serial',
      'sim-cli',
      '--goods',
      '600000000105',
      '--adb-port',
      String(sim.adbPort),
    ]);
    expect(delisted).toMatchObject({ code: 1, out: { error: { code: 'GOODS_DELISTED' } } });
  });
});

describe('registration with the admin', () => {
  it('retries while the admin is unreachable, sends the Bearer token, and stops on a 401', async () => {
    const seen: { auth: string | undefined; body: unknown }[] = [];
    let status = 503;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, body: JSON.parse(body) });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const reg = { serial: 's1', model: 'Pixel', app_version: '8.17.0', capabilities: ['collect'] };
      const c = new AdminClient({ adminUrl: url, deviceId: 'dev-1', token: 'ab12', log: testLogger(), backoffMs: 50 });
      const first = c.register(reg);
      await new Promise((r) => setTimeout(r, 200));
      status = 200;
      expect(await first).toBe('registered');
      expect(seen.length).toBeGreaterThan(1);
      expect(seen[0]).toEqual({ auth: 'Bearer dev-1.ab12', body: reg });
      status = 401;
      expect(await c.register(reg)).toBe('unauthorized');
      const n = seen.length;
      expect(await c.register(reg)).toBe('unauthorized');
      expect(seen.length).toBe(n);
    } finally {
      server.close();
    }
  });
});
