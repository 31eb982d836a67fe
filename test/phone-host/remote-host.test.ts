import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { hostSetupCommand, type HostSetupFacts } from '../../domain/host-setup';
import type { DeviceView } from '../../domain/devices';
import { deviceTaskQueue } from '../../domain/task-queues';
import { ENCRYPTED_ENCODING } from '../../temporal/codec/encryption-codec';
import { PAYLOAD_KEYS_VAR } from '../../temporal/codec/keys';
import { startPhoneSim, type PhoneSim } from '../../sim/phone';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { BLACK_M, releaseAppVersionInTestDb } from '../purchase/setup';
import { collectedInTestDb } from '../collected';
import { startReferencePurchase } from '../reference-purchase';
import { operatorSteps, until } from './operator-steps';

jest.setTimeout(600_000);
const TRIES = 2_400;
const ROOT = path.resolve(__dirname, '../..');

/**
 * A phone host "on another machine" (docs/phone-hosts.md "Setting one up"): its own copy of the
 * repository, an environment with nothing but PATH and a fresh HOME, and exactly the start script
 * 发放主机凭据 prints — no payload keys anywhere on it. It gets the keys over its admin channel,
 * hands them to its device worker on stdin, and the purchase that worker runs writes encrypted
 * payloads into Temporal; no file of the host holds them.
 */
describe('a phone host started from the printed command', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let sim: PhoneSim;
  let host: ChildProcess | undefined;
  let machine: string;
  const output: string[] = [];

  /** The working tree as it is (what a clone of it would hold), its packages linked, not installed. */
  function copyRepository(into: string): void {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
      .toString('utf8')
      .split('\0')
      .filter((f) => f !== '' && fs.existsSync(path.join(ROOT, f)));
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(into, f)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, f), path.join(into, f));
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(into, 'node_modules'));
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    await releaseAppVersionInTestDb(admin);
    op = await loginOperator(admin);
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['remote-a'] });
    machine = fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-remote-host-'));
  });
  afterAll(async () => {
    if (host?.pid && host.exitCode === null) {
      process.kill(-host.pid, 'SIGTERM');
      await new Promise((r) => host!.once('exit', r));
    }
    await sim?.close();
    await admin?.close();
    if (machine) fs.rmSync(machine, { recursive: true, force: true });
  });

  it('without 管理服务对外地址 there is no command to print', async () => {
    const issued = await op.post('/api/hosts', { display_name: '未设置地址' });
    expect(issued.status).toBe(201);
    const body = issued.body as { host_id: string; token: string; setup: HostSetupFacts };
    expect(body.setup.admin_public_url).toBeNull();
    expect(hostSetupCommand(body.setup, body)).toBeNull();
  });

  it('runs as printed in an empty environment, gets the keys from the admin, and buys with encrypted payloads', async () => {
    expect((await op.put('/api/settings', { 'admin.public_url': admin.url })).status).toBe(200);
    const issued = (await op.post('/api/hosts', { display_name: '远程主机' })).body as {
      host_id: string;
      token: string;
      setup: HostSetupFacts;
    };
    const command = hostSetupCommand(issued.setup, issued)!;
    expect(command.run).toContain(`CMAUTOBUY_ADMIN_PUBLIC_URL=${admin.url}`);
    expect(command.run).toContain(`CMAUTOBUY_TEMPORAL_NAMESPACE=${admin.namespace}`);
    const keys = process.env[PAYLOAD_KEYS_VAR] as string;
    const keyBase64 = keys.split(',')[0]!.split(':')[1]!;
    expect(`${command.install}\n${command.run}`).not.toContain(keyBase64);
    expect(command.run).not.toContain('PAYLOAD_KEYS');

    const repo = path.join(machine, 'cmautobuy');
    const home = path.join(machine, 'home');
    fs.mkdirSync(home);
    copyRepository(repo);
    // the ADB server's port is this machine's own fact, not the admin's: the simulator's here
    host = spawn('bash', ['-c', `${command.run} --adb-port ${sim.adbPort}`], {
      cwd: repo,
      env: { PATH: process.env.PATH, HOME: home },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [host.stdout!, host.stderr!])
      readline.createInterface({ input: stream }).on('line', (l) => output.push(l));
    await until(
      async () => output.join('\n'),
      (o) => /PHONE HOST READY/.test(o) || host!.exitCode !== null,
      'PHONE HOST READY',
      TRIES,
    );
    expect(output.join('\n')).toContain(`PHONE HOST READY ${issued.host_id}`);

    const pending = (await until(
      async () => ((await op.get('/api/devices')).body as DeviceView[]).find((d) => d.serial === 'remote-a'),
      (d) => d?.state === 'pending',
      'remote-a pending',
      TRIES,
    )) as DeviceView;
    expect((await op.post(`/api/devices/${pending.device_id}/approve`)).status).toBe(200);
    const { task, waitFor } = operatorSteps(
      () => op,
      () => admin.db,
      TRIES,
    );
    // a live purchase: the one order the phone holds is the task's
    await collectedInTestDb(admin.db, BLACK_M.goodsId);
    const t = await startReferencePurchase(op, { mode: 'live', quantity: 1, maxTotalPriceCent: 2000 });
    const bought = await waitFor(t, ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL', 'FAILED']);
    expect(bought).toMatchObject({ status: 'WAITING_PAYMENT', device_id: pending.device_id });
    expect(sim.phone('remote-a').app.orders.map((o) => o.order_no)).toEqual([bought.pdd_order_no]);

    // what the phone's worker answered is in the history encrypted: it had the admin's ring
    const workflowId = (await task(t)).workflow_id as string;
    const history = await (await admin.temporal.client()).workflow.getHandle(workflowId).fetchHistory();
    const events = history.events ?? [];
    const onPhone = new Set(
      events
        .filter((e) => e.activityTaskScheduledEventAttributes?.taskQueue?.name === deviceTaskQueue(pending.device_id))
        .map((e) => String(e.eventId)),
    );
    const results = events
      .map((e) => e.activityTaskCompletedEventAttributes)
      .filter((a) => a && onPhone.has(String(a.scheduledEventId)))
      .flatMap((a) => a!.result?.payloads ?? []);
    expect(results.length).toBeGreaterThan(0);
    for (const p of results) expect(Buffer.from(p.metadata!.encoding!).toString('utf8')).toBe(ENCRYPTED_ENCODING);

    // no file of that machine holds the keys: not its data dir, not its home
    const holding: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile() && fs.readFileSync(p).includes(keyBase64)) holding.push(p);
      }
    };
    walk(path.join(repo, 'data'));
    walk(home);
    expect(holding).toEqual([]);
  });
});
