import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Connection } from '@temporalio/client';
import Database from 'better-sqlite3';
import { freePort } from '../../platform/network';
import { cmdline, descendants, running } from '../../platform/process-tree';
import { SEARCH_ATTRIBUTE_NAMES } from '../../temporal/search-attributes';
import { openAdminDb } from '../../admin/db/database';
import { mayRaisePriority } from '../../platform/children';
import { collectedInTestDb } from '../collected';
import { startReferencePurchase } from '../reference-purchase';
import { getJson, loginOperator, tempDataDir } from '../harness';

/** A draft needs a collect: the simulator's reference goods as its collect stores it, written beside the running admin. */
async function collectedInAdminDb(dataDir: string): Promise<void> {
  const db = openAdminDb(path.join(dataDir, 'admin.db'));
  try {
    await collectedInTestDb(db, '937122477375');
  } finally {
    await db.destroy();
  }
}

const ROOT = path.resolve(__dirname, '../..');

/** Running, not a zombie: the process and its command line, for a test's message; null once it is gone. */
const alive = (pid: number): string | null => (running(pid) ? `${pid} ${cmdline(pid).slice(0, 200)}` : null);

/** The nice value of each thread of a process (Linux keeps one per thread). */
function threadNices(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

function environ(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

const PASSWORD = 'start-test-password';

describe('npm start (the embedded system)', () => {
  let proc: ChildProcess | undefined;
  let dataDir: string;
  let adminUrl: string;
  let temporalUiUrl: string;
  let temporal: number;
  let simControl: number;
  const output: string[] = [];
  const temporalServers = () =>
    descendants(proc!.pid!).filter((p) => cmdline(p).includes('server start-dev') && alive(p) !== null);
  const runningWorkers = () =>
    descendants(proc!.pid!).filter((p) => cmdline(p).includes('workers/main-device-worker.ts') && alive(p) !== null);
  /** the device workers once there are `n` (the phone host starts them within a sync round) */
  const deviceWorkers = async (n: number, not: number[] = []) => {
    for (let i = 0; i < 600; i++) {
      const now = runningWorkers();
      if (now.length === n && now.every((p) => !not.includes(p))) return now;
      await new Promise((r) => setTimeout(r, 200));
    }
    return runningWorkers();
  };
  const adminPid = () =>
    descendants(proc!.pid!).find((p) => cmdline(p).includes('workers/main-admin.ts') && alive(p) !== null);

  beforeAll(async () => {
    const [admin, temporalPort, temporalUi, adb, control, syb] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    temporal = temporalPort;
    simControl = control;
    dataDir = tempDataDir('npm-start');
    proc = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT,
      env: {
        ...process.env,
        CMAUTOBUY_DATA_DIR: dataDir,
        CMAUTOBUY_ADMIN_PORT: String(admin),
        CMAUTOBUY_TEMPORAL_PORT: String(temporal),
        CMAUTOBUY_TEMPORAL_UI_PORT: String(temporalUi),
        CMAUTOBUY_SIM_ADB_PORT: String(adb),
        CMAUTOBUY_SIM_CONTROL_PORT: String(control),
        CMAUTOBUY_SYB_SIM_PORT: String(syb),
        CMAUTOBUY_ADMIN_PASSWORD: PASSWORD,
        CMAUTOBUY_TEMPORAL_ADDRESS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
    const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no READY line within 4 min:\n${output.join('')}`)), 240_000);
      readline.createInterface({ input: proc!.stdout! }).on('line', (line) => {
        output.push(`${line}\n`);
        const m = /^READY admin=(\S+) temporal-ui=(\S+)$/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        }
      });
      proc!.once('exit', (code) => reject(new Error(`npm start exited (${code}) before READY:\n${output.join('')}`)));
    });
    adminUrl = ready[1]!;
    temporalUiUrl = ready[2]!;
    expect(adminUrl).toBe(`http://127.0.0.1:${admin}`);
  }, 300_000);
  afterAll(() => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
  });

  it('prints READY, tells the truth on /healthz, serves the UI and the Temporal UI', async () => {
    const health = await getJson(`${adminUrl}/healthz`);
    expect(health.body).toEqual({ status: 'ok', db: 'ok', temporal: 'ok' });

    const shell = await fetch(`${adminUrl}/`);
    expect(shell.status).toBe(200);
    expect(await shell.text()).toContain('lang="zh-CN"');

    // the embedded Web UI is the admin's to serve, to a logged-in operator only
    expect(temporalUiUrl).toBe(`${adminUrl}/temporal/namespaces/cmautobuy/workflows`);
    expect((await fetch(temporalUiUrl, { redirect: 'manual' })).status).toBe(302);
    const op = await loginOperator({ url: adminUrl }, 'admin', PASSWORD);
    expect((await op.get('/temporal/namespaces/cmautobuy/workflows')).status).toBe(200);

    const connection = await Connection.connect({ address: `127.0.0.1:${temporal}` });
    const attrs = await connection.operatorService.listSearchAttributes({ namespace: 'cmautobuy' });
    await connection.close();
    for (const name of SEARCH_ATTRIBUTE_NAMES) expect(Object.keys(attrs.customAttributes ?? {})).toContain(name);

    // One phone host runs a device worker for each simulated phone (approved by npm start itself).
    expect(await deviceWorkers(2)).toHaveLength(2);
    const hosts = descendants(proc!.pid!).filter((p) => cmdline(p).includes('phone-host/main.ts') && alive(p));
    expect(hosts).toHaveLength(1);
    for (const w of await deviceWorkers(2)) expect(descendants(hosts[0]!)).toContain(w);
    // the admin's Temporal worker is a process of its own, off the admin's event loop
    expect(
      descendants(proc!.pid!).filter((p) => cmdline(p).includes('workers/main-admin-worker.ts') && alive(p) !== null),
    ).toHaveLength(1);
  });

  it('serves metrics from every process where metrics-targets.json says', async () => {
    // Every process's metrics answer where <data>/metrics-targets.json (Prometheus file_sd) says.
    const targets = JSON.parse(fs.readFileSync(path.join(dataDir, 'metrics-targets.json'), 'utf8')) as Array<{
      targets: string[];
      labels: { job: string };
    }>;
    expect(targets.map((t) => t.labels.job).sort()).toEqual(['admin', 'admin-worker', 'phone-host', 'temporal-sdk']);
    for (const t of targets)
      expect({ job: t.labels.job, status: (await fetch(`http://${t.targets[0]}/metrics`)).status }).toEqual({
        job: t.labels.job,
        status: 200,
      });
  });

  it('runs the batch (phones, simulators, the admin worker) at nice 10 and the admin at -10 where it may, every thread', async () => {
    const workers = await deviceWorkers(2);
    const tree = descendants(proc!.pid!).filter((p) => alive(p) !== null);
    const by = (entry: string) => tree.filter((p) => cmdline(p).includes(entry));
    const niceOf = (pid: number) => [...new Set(threadNices(pid))];
    // ahead of the Temporal server (0) when the cores are full; without CAP_SYS_NICE at the supervisor's 0
    expect(niceOf(adminPid()!)).toEqual([mayRaisePriority() ? -10 : 0]);
    const batch = ['sim/phone/main.ts', 'sim/syb/main.ts', 'workers/main-admin-worker.ts', 'phone-host/main.ts'];
    for (const entry of batch) expect({ entry, running: by(entry).length }).toEqual({ entry, running: 1 });
    for (const pid of [...batch.flatMap(by), ...workers])
      expect({ process: cmdline(pid).slice(0, 80), nice: niceOf(pid) }).toEqual({
        process: cmdline(pid).slice(0, 80),
        nice: [10],
      });
  });

  it('keeps the admin password in the admin alone, and every data file owner-only', () => {
    const tree = descendants(proc!.pid!).filter((p) => alive(p) !== null);
    const admin = adminPid();
    expect(admin).toBeDefined();
    expect(environ(admin!)).toContain(`CMAUTOBUY_ADMIN_PASSWORD=${PASSWORD}`);
    // The supervisor was given the password by the operator (/proc keeps its start environment),
    // and tsx's esbuild service is a helper the supervisor and the admin start for themselves.
    const others = tree.filter(
      (p) =>
        p !== admin &&
        !cmdline(p).includes('scripts/supervisor.ts') &&
        !cmdline(p).includes('esbuild') &&
        environ(p) !== '',
    );
    expect(others.length).toBeGreaterThanOrEqual(4); // temporal, sim, two device workers
    for (const p of others)
      expect({ p: cmdline(p).slice(0, 80), leaked: environ(p).includes(PASSWORD) }).toEqual({
        p: cmdline(p).slice(0, 80),
        leaked: false,
      });

    const loose: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        const mode = fs.lstatSync(full).mode & 0o777;
        if (e.isDirectory()) {
          if (mode & 0o077) loose.push(`${full} ${mode.toString(8)}`);
          walk(full);
        } else if (e.isFile() && mode & 0o077) loose.push(`${full} ${mode.toString(8)}`);
      }
    };
    walk(dataDir);
    expect(loose).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o077).toBe(0);
  });

  it('restarts a killed admin and keeps the system answering, logging the restart', async () => {
    const before = adminPid();
    expect(before).toBeDefined();
    process.kill(before!, 'SIGKILL');
    let after: number | undefined;
    let health: { status: number; body: unknown } = { status: 0, body: null };
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = adminPid();
      if (after === undefined || after === before) continue;
      health = await getJson(`${adminUrl}/healthz`).catch(() => ({ status: 0, body: null, headers: new Headers() }));
      if (health.status === 200) break;
    }
    expect(after).not.toBe(before);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', db: 'ok' } });
    expect(proc!.exitCode).toBeNull();
    const restarts = fs
      .readFileSync(path.join(dataDir, 'logs', 'supervisor.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { child: string; exit: string });
    expect(restarts).toEqual([expect.objectContaining({ child: 'admin', exit: 'SIGKILL' })]);
    // the operator logs in on the restarted admin
    const login = await getJson(`${adminUrl}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
  }, 180_000);

  it('restarts SIGKILLed device workers and the admin worker, logs each restart, and a purchase still finishes with one order', async () => {
    const adminWorker = () =>
      descendants(proc!.pid!).filter((p) => cmdline(p).includes('workers/main-admin-worker.ts') && alive(p) !== null);
    // the same two workers for 3 s: a worker still exiting from an earlier test's admin restart
    // would be killed mid-exit and reported with its own exit code, not SIGKILL
    let before = await deviceWorkers(2);
    for (let steady = 0, i = 0; steady < 15 && i < 600; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await deviceWorkers(2);
      steady = now.length === 2 && now.every((p) => before.includes(p)) ? steady + 1 : 0;
      before = now;
    }
    expect(before).toHaveLength(2);
    const adminWorkerBefore = adminWorker();
    expect(adminWorkerBefore).toHaveLength(1);
    for (const p of [...before, ...adminWorkerBefore]) process.kill(p, 'SIGKILL');
    // all come back (new processes): the device workers restarted and counted by the phone host,
    // the admin worker by the supervisor
    const after = await deviceWorkers(2, before);
    expect(after).toHaveLength(2);
    for (let i = 0; i < 600 && !adminWorker().some((p) => !adminWorkerBefore.includes(p)); i++)
      await new Promise((r) => setTimeout(r, 200));
    expect(adminWorker().filter((p) => !adminWorkerBefore.includes(p))).toHaveLength(1);
    const supervisorRestarts = fs
      .readFileSync(path.join(dataDir, 'logs', 'supervisor.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { child: string; exit: string });
    expect(supervisorRestarts.filter((r) => r.child === 'admin-worker' && r.exit === 'SIGKILL')).toHaveLength(1);
    expect(after.some((p) => before.includes(p))).toBe(false);
    const hostLog = fs.readdirSync(path.join(dataDir, 'logs')).find((f) => /^phone-host-.*\.log$/.test(f))!;
    const restartsLogged = () =>
      fs
        .readFileSync(path.join(dataDir, 'logs', hostLog), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; child?: string; exit?: string })
        .filter((l) => l.msg === 'device worker restarted' && l.exit === 'SIGKILL');
    // the phone host's logger writes asynchronously: a new worker can be up before its line is on disk
    for (let i = 0; i < 50 && restartsLogged().length < 2; i++) await new Promise((r) => setTimeout(r, 200));
    if (restartsLogged().length !== 2) {
      // what the phone host said about its workers, for the reader of a failed run
      const said = fs.readFileSync(path.join(dataDir, 'logs', hostLog), 'utf8').split('\n');
      console.error(said.filter((l) => /device worker|phone/.test(l)).join('\n'));
    }
    expect(restartsLogged()).toHaveLength(2);

    // a purchase on the healed system: claimed by a restarted worker, one order, one submit tap, no payment
    const op = await loginOperator({ url: adminUrl }, 'admin', PASSWORD);
    type Task = { status: string; reason_code: string | null; pdd_order_no: string | null };
    const run = async (mode: 'live' | 'dry_run'): Promise<Task> => {
      await collectedInAdminDb(dataDir);
      const task_id = await startReferencePurchase(op, { mode, quantity: 1, maxTotalPriceCent: 2000 });
      let t: Task = { status: '', reason_code: null, pdd_order_no: null };
      const ends = ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL', 'FAILED', 'DRY_RUN_PASSED'];
      for (let i = 0; i < 900 && !ends.includes(t.status); i++) {
        await new Promise((r) => setTimeout(r, 200));
        t = (await op.get(`/api/tasks/${task_id}`)).body as Task;
      }
      return t;
    };
    // Nothing released the phones' PDD version: the first live purchase stops at the gate, untapped;
    // a dry run makes it releasable, the operator releases it, and the next live purchase buys.
    expect(await run('live')).toMatchObject({ status: 'NEEDS_MANUAL', reason_code: 'APP_VERSION_NOT_RELEASED' });
    expect((await run('dry_run')).status).toBe('DRY_RUN_PASSED');
    expect((await op.post('/api/app-versions/8.17.0/release')).status).toBe(200);
    const task = await run('live');
    expect(task.status).toBe('WAITING_PAYMENT');
    const phones = (await getJson(`http://127.0.0.1:${simControl}/devices`)).body as { serial: string }[];
    const orders: { order_no: string }[] = [];
    type Node = { text?: string; resource_id?: string } | null;
    const taps: { screen: string; node: Node; target: Node }[] = [];
    const isSubmit = (t: (typeof taps)[number]) =>
      [t.target, t.node].some(
        (n) => (n?.text ?? '').startsWith('提交订单') || (n?.resource_id ?? '').includes('ll_sku_confirm'),
      );
    for (const { serial } of phones) {
      orders.push(
        ...((await getJson(`http://127.0.0.1:${simControl}/devices/${serial}/orders`)).body as { order_no: string }[]),
      );
      taps.push(...((await getJson(`http://127.0.0.1:${simControl}/devices/${serial}/taps`)).body as typeof taps));
    }
    expect(orders).toHaveLength(1);
    expect(task.pdd_order_no).toBe(orders[0]!.order_no);
    expect(taps.filter(isSubmit)).toHaveLength(1);
    expect(taps.filter((t) => t.screen === 'cashier' || t.screen === 'payment_handoff')).toHaveLength(0);
  }, 420_000);

  it('restarts a SIGKILLed Temporal server on its SQLite file mid-purchase; the purchase goes on to WAITING_PAYMENT with one order', async () => {
    const dbFile = path.join(dataDir, 'temporal', 'temporal.db');
    const [before, ...more] = temporalServers();
    expect(more).toEqual([]);
    expect(cmdline(before!)).toContain(dbFile);
    const op = await loginOperator({ url: adminUrl }, 'admin', PASSWORD);
    const phones = (await getJson(`http://127.0.0.1:${simControl}/devices`)).body as { serial: string }[];
    const orders = async () => {
      const all: { order_no: string }[] = [];
      for (const { serial } of phones)
        all.push(
          ...((await getJson(`http://127.0.0.1:${simControl}/devices/${serial}/orders`)).body as {
            order_no: string;
          }[]),
        );
      return all;
    };
    const ordersBefore = (await orders()).length;
    await collectedInAdminDb(dataDir);
    const task_id = await startReferencePurchase(op, { mode: 'live', quantity: 1, maxTotalPriceCent: 2000 });
    type Task = { status: string; pdd_order_no: string | null };
    const task = async () => (await op.get(`/api/tasks/${task_id}`)).body as Task;
    let t = await task();
    for (let i = 0; i < 1200 && !['CLAIMED', 'ORDERING'].includes(t.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      t = await task();
    }
    expect(['CLAIMED', 'ORDERING']).toContain(t.status);
    process.kill(before!, 'SIGKILL');

    let after: number | undefined;
    for (let i = 0; i < 600 && after === undefined; i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = temporalServers().find((p) => p !== before);
    }
    expect(cmdline(after!)).toContain(dbFile);
    const ends = ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL', 'FAILED'];
    for (let i = 0; i < 1500 && !ends.includes(t.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      t = await task().catch(() => t);
    }
    expect(t.status).toBe('WAITING_PAYMENT');
    const now = await orders();
    expect(now).toHaveLength(ordersBefore + 1);
    expect(now.filter((o) => o.order_no === t.pdd_order_no)).toHaveLength(1);

    const restarts = fs
      .readFileSync(path.join(dataDir, 'logs', 'supervisor.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { child: string; exit: string; delay_ms: number });
    expect(restarts.filter((r) => r.child === 'temporal')).toEqual([
      expect.objectContaining({ child: 'temporal', exit: 'SIGKILL', delay_ms: 1000 }),
    ]);
  }, 300_000);

  it('the phones present at start were approved by the system; a phone added later waits as 待批准, is approved and completes a dry run', async () => {
    const op = await loginOperator({ url: adminUrl }, 'admin', PASSWORD);
    type Device = { device_id: string; serial: string | null; state: string; online: boolean; host_id: string | null };
    const devices = async () => (await op.get('/api/devices')).body as Device[];
    const atStart = (await devices()).filter((d) => d.serial?.startsWith('sim-phone-'));
    expect(atStart.map((d) => [d.serial, d.state]).sort()).toEqual([
      ['sim-phone-1', 'active'],
      ['sim-phone-2', 'active'],
    ]);
    const db = new Database(path.join(dataDir, 'admin.db'), { readonly: true });
    const approvals = db
      .prepare("SELECT actor_kind, actor, target_id FROM audit_log WHERE action = 'device.approve'")
      .all();
    db.close();
    const byId = (a: { target_id: string }, b: { target_id: string }) => a.target_id.localeCompare(b.target_id);
    expect((approvals as Array<{ target_id: string }>).sort(byId)).toEqual(
      atStart.map((d) => ({ actor_kind: 'system', actor: 'npm-start', target_id: d.device_id })).sort(byId),
    );

    // the embedded host's outward channel serves their screens (docs/phone-hosts.md "Live screen")
    for (const d of atStart) {
      let frame = await op.get(`/api/devices/${d.device_id}/screen`);
      for (let i = 0; i < 100 && frame.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        frame = await op.get(`/api/devices/${d.device_id}/screen`);
      }
      expect(frame.status).toBe(200);
    }

    const added = await getJson(`http://127.0.0.1:${simControl}/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ serial: 'sim-phone-late' }),
    });
    expect(added.status).toBeLessThan(300);
    let late: Device | undefined;
    for (let i = 0; i < 300 && late?.state !== 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      late = (await devices()).find((d) => d.serial === 'sim-phone-late');
    }
    expect(late).toMatchObject({ state: 'pending', host_id: atStart[0]!.host_id });
    // it waits: no worker for it until an operator approves
    await new Promise((r) => setTimeout(r, 3_000));
    expect(runningWorkers()).toHaveLength(2);
    expect((await op.post(`/api/devices/${late!.device_id}/approve`)).status).toBe(200);
    expect(await deviceWorkers(3)).toHaveLength(3);
    // the phones from the start are paused, so the dry run can only go to the new one
    for (const d of atStart) expect((await op.post(`/api/devices/${d.device_id}/pause`)).status).toBe(200);
    await collectedInAdminDb(dataDir);
    const task_id = await startReferencePurchase(op, { mode: 'dry_run', quantity: 1, maxTotalPriceCent: 2000 });
    let t = { status: '', device_id: null as string | null };
    for (let i = 0; i < 900 && !['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED'].includes(t.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      t = (await op.get(`/api/tasks/${task_id}`)).body as typeof t;
    }
    expect(t).toMatchObject({ status: 'DRY_RUN_PASSED', device_id: late!.device_id });
    for (const d of atStart) await op.post(`/api/devices/${d.device_id}/resume`);
  }, 240_000);

  it('Ctrl-C leaves nothing behind', async () => {
    const tree = descendants(proc!.pid!);
    const exited = new Promise<number | null>((resolve) => proc!.once('exit', (code) => resolve(code)));
    proc!.kill('SIGINT');
    expect(await exited).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(tree.map(alive).filter((p) => p !== null)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'temporal', 'temporal.db'))).toBe(true);
  }, 60_000);
});
