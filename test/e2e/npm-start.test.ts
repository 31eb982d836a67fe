import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Connection } from '@temporalio/client';
import { freePort } from '../../temporal/dev-server';
import { SEARCH_ATTRIBUTE_NAMES } from '../../temporal/search-attributes';
import { getJson, tempDataDir } from '../harness';

const ROOT = path.resolve(__dirname, '../..');

/** Every process below `pid`, read from /proc (Linux), so the test can prove none survives. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** Running, not a zombie (a zombie has exited; in a container nobody may reap it). */
function alive(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    if (state === 'Z' || state === 'X') return null;
    return `${pid} ${state} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 200)}`;
  } catch {
    return null;
  }
}

describe('npm start (the embedded system)', () => {
  let proc: ChildProcess | undefined;
  afterAll(() => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
  });

  it('prints READY, tells the truth on /healthz, serves the UI and the Temporal UI, and Ctrl-C leaves nothing behind', async () => {
    const [admin, temporal, temporalUi, adb, control] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const dataDir = tempDataDir('npm-start');
    const output: string[] = [];
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
        CMAUTOBUY_ADMIN_PASSWORD: 'start-test-password',
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
    const [, adminUrl, temporalUiUrl] = ready;
    expect(adminUrl).toBe(`http://127.0.0.1:${admin}`);

    const health = await getJson(`${adminUrl}/healthz`);
    expect(health.body).toEqual({ status: 'ok', db: 'ok', temporal: 'ok' });

    const shell = await fetch(`${adminUrl}/`);
    expect(shell.status).toBe(200);
    expect(await shell.text()).toContain('lang="zh-CN"');

    const ui = await fetch(temporalUiUrl!);
    expect(ui.status).toBe(200);

    const connection = await Connection.connect({ address: `127.0.0.1:${temporal}` });
    const attrs = await connection.operatorService.listSearchAttributes({ namespace: 'cmautobuy' });
    await connection.close();
    for (const name of SEARCH_ATTRIBUTE_NAMES) expect(Object.keys(attrs.customAttributes ?? {})).toContain(name);

    // Both simulated phones have a device worker.
    const tree = descendants(proc.pid!);
    expect(tree.length).toBeGreaterThanOrEqual(5); // supervisor, temporal, sim, admin, 2 device workers

    // Every process's metrics answer where <data>/metrics-targets.json (Prometheus file_sd) says.
    const targets = JSON.parse(fs.readFileSync(path.join(dataDir, 'metrics-targets.json'), 'utf8')) as Array<{ targets: string[]; labels: { job: string } }>;
    expect(targets.map((t) => t.labels.job).sort()).toEqual(['admin', 'device-worker', 'device-worker', 'temporal-sdk', 'temporal-sdk', 'temporal-sdk']);
    for (const t of targets) expect({ job: t.labels.job, status: (await fetch(`http://${t.targets[0]}/metrics`)).status }).toEqual({ job: t.labels.job, status: 200 });

    const exited = new Promise<number | null>((resolve) => proc!.once('exit', (code) => resolve(code)));
    proc.kill('SIGINT');
    expect(await exited).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(tree.map(alive).filter((p) => p !== null)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'temporal', 'temporal.db'))).toBe(true);
  }, 300_000);
});
