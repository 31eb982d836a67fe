import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Client, Connection } from '@temporalio/client';
import { startSybSim, type SybSim } from '../../sim/syb/server';
import type { sybSync } from '../../workflows/syb-sync';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import { openMigratedAdminDb } from '../../admin/db/database';
import { SybService } from '../../admin/syb/account';
import { installPayloadKeys, temporalDataConverter } from '../../temporal/codec';
import { freePort } from '../../platform/network';
import { decryptHistoryPayloads } from '../../temporal/codec/history';
import { newPayloadKeyEntry, PAYLOAD_KEYS_VAR, parsePayloadKeys } from '../../temporal/codec/keys';
import { loginOperator, tempDataDir, TEST_ADMIN_PASSWORD, type OperatorClient } from '../harness';
import { until } from '../device/fixtures';
import { allocateNamespace } from '../namespaces';
import { shipment, SimControl, taipeiAt } from './helpers';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The account set on 设置 is the one that syncs, as `npm start` runs it: the admin
 * (`workers/main-admin.ts --no-worker`) and the admin worker (`workers/main-admin-worker.ts`) are two
 * processes over one data dir, and neither gets a SYB variable — the account reaches the worker
 * only through `PUT /api/syb/settings`. A restart of either keeps it, and the password is in
 * clear nowhere: not in admin.db or its WAL, not in a log, not in a Temporal payload.
 */
describe('SYB account set on 设置: the admin worker syncs with it', () => {
  // distinctive, so a grep of the files cannot miss it or match something else
  const PASSWORD = `Syb-pw-${randomBytes(12).toString('hex')}`;
  let sim: SybSim & { control: SimControl };
  let dataDir: string;
  let namespace: string;
  let admin: Proc;
  let worker: Proc;
  let op: OperatorClient;
  const output: string[] = [];
  const all: Proc[] = [];

  beforeAll(async () => {
    const base = await startSybSim({
      port: 0,
      password: PASSWORD,
      shipments: [shipment(1, taipeiAt(0, '08:00:00'), [{ productId: '55500000001', spec: '黑色,M' }])],
    });
    sim = Object.assign(base, { control: new SimControl(base.url) });
    dataDir = tempDataDir('syb-delivery');
    namespace = allocateNamespace();
    admin = await spawnAdmin();
    worker = await spawnWorker();
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    for (const p of all) await p.stop();
    await sim?.close();
  });

  interface Proc {
    child: ChildProcess;
    url: string;
    stop(): Promise<void>;
  }

  /** No SYB variable reaches either process: whatever they know of the account came through the API. */
  const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CMAUTOBUY_DATA_DIR: dataDir,
      CMAUTOBUY_TEMPORAL_ADDRESS: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS,
      CMAUTOBUY_TEMPORAL_NAMESPACE: namespace,
      CMAUTOBUY_WORKFLOW_BUNDLE: process.env.CMAUTOBUY_TEST_WORKFLOW_BUNDLE,
      CMAUTOBUY_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      // the most the processes log: a password in any of it would show
      CMAUTOBUY_LOG_LEVEL: 'debug',
      ...extra,
    };
    for (const key of Object.keys(env)) if (key.startsWith('CMAUTOBUY_SYB_')) delete env[key];
    expect(env[PAYLOAD_KEYS_VAR]).toBeTruthy(); // the run's key (test/harness.ts), the same in both
    return env;
  };

  const spawnProc = async (name: string, script: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Proc> => {
    // node --import tsx: one process per child (the tsx CLI would fork another)
    const child = spawn(process.execPath, ['--import', 'tsx', ...script], { cwd: ROOT, env, stdio: 'pipe' });
    const mine: string[] = [];
    const keep = (d: Buffer) => {
      output.push(d.toString());
      mine.push(d.toString());
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} not ready within 90 s:\n${mine.join('')}`)), 90_000);
      child.once('exit', (code) => reject(new Error(`${name} exited ${code}:\n${mine.join('')}`)));
      readline.createInterface({ input: child.stdout }).on('line', (line) => {
        const m = ready.exec(line);
        if (!m) return;
        clearTimeout(timer);
        resolve(m[1] ?? '');
      });
    });
    const exited = new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    const proc: Proc = {
      child,
      url,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
    all.push(proc);
    return proc;
  };

  const spawnAdmin = async () =>
    spawnProc(
      'admin',
      [path.join(ROOT, 'workers/main-admin.ts'), '--no-worker'],
      childEnv({ CMAUTOBUY_ADMIN_PORT: String(await freePort()) }),
      /^ADMIN READY (\S+)/,
    );
  const spawnWorker = async () =>
    spawnProc('admin worker', [path.join(ROOT, 'workers/main-admin-worker.ts')], childEnv({}), /^(ADMIN WORKER READY)/);

  /** Every message down a failure's cause chain (workflow → activity → the activity's own error). */
  const causes = (err: unknown): string => {
    const parts: string[] = [];
    for (let e = err as (Error & { type?: string }) | undefined; e; e = e.cause as typeof e)
      parts.push(`${e.type ?? e.name}: ${e.message}`);
    return parts.join(' ← ');
  };
  const lists = async () => (await sim.control.requests()).filter((r) => r.path === '/am/stock/list').length;
  const logins = async () => (await sim.control.requests()).filter((r) => r.path === '/api/auth/login').length;

  /** The sync workflow's outcome (its history decrypted, for the grep below). */
  const histories: string[] = [];
  const outcome = async (start: (client: Client) => Promise<string>): Promise<unknown> => {
    const connection = await Connection.connect({ address: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS as string });
    try {
      const client = new Client({ connection, namespace, dataConverter: temporalDataConverter() });
      const handle = client.workflow.getHandle(await start(client));
      const result = await handle.result().catch((err: unknown) => ({ failed: causes(err) }));
      histories.push(JSON.stringify(await decryptHistoryPayloads(await handle.fetchHistory())));
      return result;
    } finally {
      await connection.close();
    }
  };
  /** 立即同步 through the API. */
  const syncOnce = () =>
    outcome(async () => {
      const started = await op.post('/api/syb/sync');
      expect(started.status).toBe(202);
      return (started.body as { workflow_id: string }).workflow_id;
    });

  it('PUT on 设置 (no environment): the worker process logs in upstream and stores the lines', async () => {
    expect((await op.get('/api/syb/settings')).body).toMatchObject({ configured: false, password_set: false });
    const { username } = await sim.control.credentials();
    const set = await op.put('/api/syb/settings', { url: sim.url, username, password: PASSWORD });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ url: sim.url, username, password_set: true, configured: true });

    // before: the worker held no password, and every sync ended SYB_NOT_CONFIGURED with no call
    // upstream; now the account set starts the first sync at once, and the worker logs in with it
    await until('the first sync to log in upstream', async () => (await logins()) === 1, 30_000);
    expect(await syncOnce()).toMatchObject({ lines: 1 });
    expect(await logins()).toBe(1);
    const lines = await op.get('/api/syb/orders');
    expect((lines.body as { items: Array<{ shopee_goods_id: string }> }).items).toMatchObject([
      { shopee_goods_id: '55500000001' },
    ]);
  });

  it('the worker restarted: it still syncs, logging in anew with the password it read from the admin DB', async () => {
    await worker.stop();
    worker = await spawnWorker();
    expect(await syncOnce()).toMatchObject({ lines: 1 });
    expect(await logins()).toBe(2); // the session is memory-only: a new process logs in again
  });

  it('the admin restarted: still configured, and the sync it starts still runs', async () => {
    await admin.stop();
    admin = await spawnAdmin();
    op = await loginOperator(admin);
    expect((await op.get('/api/syb/settings')).body).toMatchObject({
      password_set: true,
      password_required: false,
      configured: true,
    });
    const before = await lists();
    expect(await syncOnce()).toMatchObject({ lines: 1 });
    expect(await lists()).toBeGreaterThan(before);
  });

  it('a new address without the password drops it in the worker too: the next sync sends it nowhere', async () => {
    const other = await startSybSim({ port: 0, password: PASSWORD });
    try {
      const res = await op.put('/api/syb/settings', { url: other.url });
      expect(res.body).toMatchObject({ password_set: false, password_required: true, configured: false });
      // 立即同步 is refused by the admin; a sync workflow started anyway is refused by the worker
      expect((await op.post('/api/syb/sync')).body).toMatchObject({ error: { code: 'SYB_NOT_CONFIGURED' } });
      const direct = await outcome(async (client) => {
        const handle = await client.workflow.start<typeof sybSync>('sybSync', {
          workflowId: 'test-direct-sync',
          taskQueue: ADMIN_TASK_QUEUE,
          args: [],
        });
        return handle.workflowId;
      });
      expect(direct).toMatchObject({ failed: expect.stringContaining('SYB_NOT_CONFIGURED: no SYB account') });
      expect((await new SimControl(other.url).requests()).length).toBe(0);
      const back = await op.put('/api/syb/settings', { url: sim.url, password: PASSWORD });
      expect(back.body).toMatchObject({ configured: true });
    } finally {
      await other.close();
    }
  });

  it('admin.db, its WAL, every log and every sync history hold no clear password', async () => {
    await worker.stop();
    await admin.stop();
    const needles = [Buffer.from(PASSWORD, 'utf8'), Buffer.from(Buffer.from(PASSWORD).toString('base64'))];
    const files = [
      ...['admin.db', 'admin.db-wal', 'admin.db-shm'].map((f) => path.join(dataDir, f)),
      ...fs.readdirSync(path.join(dataDir, 'logs')).map((f) => path.join(dataDir, 'logs', f)),
    ].filter((f) => fs.existsSync(f));
    expect(files.map((f) => path.basename(f))).toEqual(
      expect.arrayContaining(['admin.db', 'admin.log', 'admin-worker.log']),
    );
    const holding = files.filter((f) => needles.some((n) => fs.readFileSync(f).includes(n)));
    expect(holding).toEqual([]);
    const printed = Buffer.from(output.join(''));
    expect(needles.some((n) => printed.includes(n))).toBe(false);
    expect(histories).toHaveLength(4);
    expect(histories.filter((h) => h.includes(PASSWORD))).toEqual([]);
    // the grep can see: the user name saved beside it is found in the same bytes
    const { username } = await sim.control.credentials();
    expect(files.some((f) => fs.readFileSync(f).includes(Buffer.from(username)))).toBe(true);
  });
});

/**
 * At rest the password is sealed with the payload key ring (temporal/codec): a rotation that puts
 * a new key in front seals it again at the next start, and a key no longer held (or altered
 * bytes) means "enter it again" — never a crash, never a call with a wrong password.
 */
describe('the sealed SYB password under payload key rotation', () => {
  const PASSWORD = `Syb-pw-${randomBytes(12).toString('hex')}`;
  const runRing = process.env[PAYLOAD_KEYS_VAR] as string;
  const account = { url: 'http://127.0.0.1:9', username: 'rotation-user', password: PASSWORD };
  const noAudit = async () => {};

  afterEach(() => installPayloadKeys(parsePayloadKeys(runRing)));

  it('is sealed again under a new leading key, opens after the old key is dropped, and a key not held asks again', async () => {
    const db = await openMigratedAdminDb(path.join(tempDataDir('syb-seal'), 'admin.db'));
    const warnings: string[] = [];
    const log = { warn: (_obj: object, msg: string) => void warnings.push(msg) };
    // as the two processes are wired: one service per process over the same admin DB
    const admin = new SybService(db, {}, log);
    const worker = new SybService(db, {}, log);
    const row = () =>
      db.selectFrom('syb_account_secret').select(['key_id', 'sealed']).where('id', '=', 1).executeTakeFirstOrThrow();
    try {
      await admin.update(account, noAudit);
      expect(await worker.account()).toEqual(account);
      const first = await row();
      expect(first.key_id).toBe(runRing.split(':')[0]);
      expect(Buffer.from(first.sealed!).includes(Buffer.from(PASSWORD))).toBe(false);

      const newKey = newPayloadKeyEntry();
      installPayloadKeys(parsePayloadKeys(`${newKey},${runRing}`));
      await worker.start();
      const resealed = await row();
      expect(resealed.key_id).toBe(newKey.split(':')[0]);
      expect(Buffer.from(resealed.sealed!).equals(Buffer.from(first.sealed!))).toBe(false);
      await worker.start(); // idempotent: already under the leading key
      expect((await row()).sealed).toEqual(resealed.sealed);

      installPayloadKeys(parsePayloadKeys(newKey)); // the old key left the ring
      expect(await admin.account()).toEqual(account);

      installPayloadKeys(parsePayloadKeys(runRing)); // the key that sealed it is not held
      expect(await worker.account()).toBeNull();
      expect(await admin.view()).toMatchObject({ password_set: false, password_required: true, configured: false });
      expect(warnings.filter((w) => /payload key this process does not hold/.test(w))).toHaveLength(2); // once per process
      // entered again: sealed under the key held now
      await admin.update({ password: PASSWORD }, noAudit);
      expect(await worker.account()).toEqual(account);

      // altered bytes do not authenticate: asked again, not sent
      const sealed = Buffer.from((await row()).sealed!);
      sealed[sealed.length - 1]! ^= 1;
      await db.updateTable('syb_account_secret').set({ sealed }).where('id', '=', 1).execute();
      expect(await worker.account()).toBeNull();
    } finally {
      await admin.close();
      await worker.close();
      await db.destroy();
    }
  });
});
