import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { sharedTemporal, tempDataDir } from '../harness';
import { allocateNamespace } from '../namespaces';
import { temporalDataConverter } from '../../temporal/codec';
import type { systemCheck } from '../../workflows/system-check';

const ROOT = path.resolve(__dirname, '../..');

interface Listed {
  namespace: string | null;
  patches: {
    id: string;
    step: string;
    added: string | null;
    open_before: number | null;
    stage: 'patched' | 'deprecated';
    sites: string[];
  }[];
}

/** `npm run patches` as an engineer runs it: a child process reading the admin's environment. */
function patches(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/patches.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err, ms: Date.now() - started }));
  });
}

/** The calls in a checkout's workflows/, read as plainly as possible: id → stage and files. */
function callsIn(root: string): Map<string, { stage: 'patched' | 'deprecated'; files: Set<string>; sites: number }> {
  const dir = path.join(root, 'workflows');
  const found = new Map<string, { stage: 'patched' | 'deprecated'; files: Set<string>; sites: number }>();
  for (const rel of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
    for (const m of fs.readFileSync(path.join(dir, rel), 'utf8').matchAll(/\b(patched|deprecatePatch)\('([^']+)'\)/g)) {
      const entry = found.get(m[2]!) ?? { stage: 'deprecated' as const, files: new Set<string>(), sites: 0 };
      if (m[1] === 'patched') entry.stage = 'patched';
      entry.files.add(rel.split(path.sep).join('/'));
      entry.sites++;
      found.set(m[2]!, entry);
    }
  }
  return found;
}

function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=patches test', '-c', 'user.email=patches@test.invalid', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** A whole second, as git records a commit date. */
function commitAt(cwd: string, message: string, at: Date): void {
  const date = `${Math.floor(at.getTime() / 1000)} +0000`;
  git(cwd, ['add', '-A']);
  git(cwd, ['commit', '-q', '-m', message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `npm run patches` (docs/versioning.md "Retiring a patch"): every patch id in workflows/ with the
 * step it guards, the commit that added it, and the open workflows of the configured namespace
 * that started before it — the number that says when a patch may move along.
 */
describe('npm run patches', () => {
  let client: Client;
  let namespace: string;
  const open: WorkflowHandle[] = [];

  /** A workflow no worker runs: it stays Running, as a purchase parked for days does. */
  async function startOpen(name: string): Promise<Date> {
    const handle = await client.workflow.start<typeof systemCheck>('systemCheck', {
      workflowId: `patches-cli-${name}-${process.pid}`,
      taskQueue: `patches-cli-nobody-polls-${process.pid}`,
      args: [{ holdSeconds: 0 }],
    });
    open.push(handle);
    return (await handle.describe()).startTime;
  }

  async function visiblyRunning(n: number): Promise<void> {
    for (let i = 0; ; i++) {
      if ((await client.workflow.count('ExecutionStatus="Running"')).count === n) return;
      if (i > 100) throw new Error(`visibility never showed ${n} running workflows`);
      await sleep(100);
    }
  }

  const target = () => ({
    CMAUTOBUY_TEMPORAL_ADDRESS: sharedTemporal().address,
    CMAUTOBUY_TEMPORAL_NAMESPACE: namespace,
  });

  beforeAll(async () => {
    namespace = allocateNamespace();
    client = new Client({
      connection: await Connection.connect({ address: sharedTemporal().address }),
      namespace,
      dataConverter: temporalDataConverter(),
    });
  });
  afterAll(async () => {
    for (const h of open) await h.terminate('test over').catch(() => undefined);
    await client?.connection.close();
  });

  describe('a checkout whose patches were committed on either side of an open workflow', () => {
    let checkout: string;
    let between: Date;
    let afterBoth: Date;

    beforeAll(async () => {
      checkout = tempDataDir('patches-checkout');
      fs.mkdirSync(path.join(checkout, 'workflows', 'inner'), { recursive: true });
      git(checkout, ['init', '-q']);
      const first = await startOpen('first');
      await sleep(2200);
      const second = await startOpen('second');
      await visiblyRunning(2);
      // a whole second after the first start and before the second
      between = new Date((Math.floor(first.getTime() / 1000) + 1) * 1000);
      expect(between.getTime()).toBeLessThan(second.getTime());
      fs.writeFileSync(
        path.join(checkout, 'workflows', 'probe.ts'),
        [
          "import { deprecatePatch, patched, setHandler } from '@temporalio/workflow';",
          "import { resetUpdate } from './messages';",
          'export async function probe(): Promise<void> {',
          "  const early = async () => (patched('probe-between') ? 1 : 0);",
          '  setHandler(resetUpdate, async () => {',
          "    deprecatePatch('probe-deprecated');",
          '  });',
          '  await early();',
          '}',
          '',
        ].join('\n'),
      );
      commitAt(checkout, 'between the two starts', between);
      afterBoth = new Date((Math.floor(second.getTime() / 1000) + 2) * 1000);
      fs.writeFileSync(
        path.join(checkout, 'workflows', 'inner', 'later.ts'),
        [
          "import { patched } from '@temporalio/workflow';",
          'export class Later {',
          '  step(): boolean {',
          "    return patched('probe-after-both') && patched('probe-between');",
          '  }',
          '}',
          '',
        ].join('\n'),
      );
      commitAt(checkout, 'after both starts', afterBoth);
      // in the working tree only
      fs.appendFileSync(
        path.join(checkout, 'workflows', 'probe.ts'),
        "export function fresh(): boolean {\n  return patched('probe-uncommitted');\n}\n",
      );
    });

    it('--json: each id with its step, stage and commit date; open_before counts the workflow started before it and not the one after', async () => {
      const r = await patches(['--json', '--root', checkout], target());
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const listed = JSON.parse(r.out) as Listed;
      expect(listed.namespace).toBe(namespace);
      expect(listed.patches).toEqual([
        {
          id: 'probe-between',
          step: 'inner/later.ts: Later.step; probe.ts: probe › early',
          added: between.toISOString(),
          open_before: 1,
          stage: 'patched',
          sites: ['workflows/inner/later.ts:4', 'workflows/probe.ts:4'],
        },
        {
          id: 'probe-deprecated',
          step: 'probe.ts: probe › resetUpdate',
          added: between.toISOString(),
          open_before: 1,
          stage: 'deprecated',
          sites: ['workflows/probe.ts:6'],
        },
        {
          id: 'probe-after-both',
          step: 'inner/later.ts: Later.step',
          added: afterBoth.toISOString(),
          open_before: 2,
          stage: 'patched',
          sites: ['workflows/inner/later.ts:4'],
        },
        {
          id: 'probe-uncommitted',
          step: 'probe.ts: fresh',
          added: null,
          open_before: null,
          stage: 'patched',
          sites: ['workflows/probe.ts:11'],
        },
      ]);
    });

    it('without --json: a table, with the namespace and its open workflows', async () => {
      const r = await patches(['--root', checkout], target());
      expect(r.code).toBe(0);
      expect(r.out).toContain(`against namespace ${namespace} at ${sharedTemporal().address}: 2 open workflows`);
      const row = (id: string) =>
        r.out
          .split('\n')
          .find((l) => l.startsWith(`${id} `))
          ?.split(/\s{2,}/);
      expect(row('probe-between')).toEqual([
        'probe-between',
        'patched',
        between.toISOString().replace('.000Z', 'Z'),
        '1',
        'inner/later.ts: Later.step; probe.ts: probe › early',
      ]);
      expect(row('probe-uncommitted')).toEqual(['probe-uncommitted', 'patched', '-', '-', 'probe.ts: fresh']);
    });

    it('an id it could not name (not a string literal) stops it, naming the place', async () => {
      const bad = tempDataDir('patches-bad');
      fs.mkdirSync(path.join(bad, 'workflows'));
      fs.writeFileSync(path.join(bad, 'workflows', 'w.ts'), "const ID = 'x';\nexport const w = () => patched(ID);\n");
      const r = await patches(['--json', '--root', bad], target());
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain('workflows/w.ts:2: patched() must be given its id as a string literal');
    });
  });

  it('this repository: every id in workflows/ is listed once, with its step, stage and the commit that added it; no open workflow predates any', async () => {
    const r = await patches(['--json'], target());
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.out) as Listed;
    const calls = callsIn(ROOT);
    expect(listed.patches.map((p) => p.id).sort()).toEqual([...calls.keys()].sort());
    expect(calls.size).toBeGreaterThanOrEqual(13);
    const shallow = git(ROOT, ['rev-parse', '--is-shallow-repository']).trim() !== 'false';
    for (const p of listed.patches) {
      const call = calls.get(p.id)!;
      const files = new Set(p.step.split('; ').map((part) => part.slice(0, part.indexOf(': '))));
      expect({ id: p.id, stage: p.stage, files, sites: p.sites.length }).toEqual({
        id: p.id,
        stage: call.stage,
        files: call.files,
        sites: call.sites,
      });
      // the first commit that carried the call, as git itself answers it
      const spelled = `${p.stage === 'patched' ? 'patched' : 'deprecatePatch'}('${p.id}')`;
      const first = shallow
        ? ''
        : git(ROOT, ['log', '--reverse', '--format=%cI', `-S${spelled}`, '--', 'workflows/']).split('\n')[0]!;
      expect({ id: p.id, added: p.added }).toEqual({ id: p.id, added: first ? new Date(first).toISOString() : null });
      // the namespace's open workflows (started above) are younger than every commit
      expect({ id: p.id, open_before: p.open_before }).toEqual({ id: p.id, open_before: p.added ? 0 : null });
    }
    const row = (id: string) => listed.patches.find((p) => p.id === id);
    // the example docs/versioning.md walks through, and a patch inside three update handlers: both
    // at stage 2, the old branch deleted and deprecatePatch where patched was
    expect(row('held-progress-in-one')).toMatchObject({ step: 'purchase/prepare.ts: begin', stage: 'deprecated' });
    expect(row('operator-writes-in-update')).toMatchObject({
      step: 'purchase/operator.ts: listenToOperator › resetUpdate, listenToOperator › markPaidUpdate, listenToOperator › resolveReconciliationUpdate',
      stage: 'deprecated',
    });
    expect(row('operator-writes-in-update')?.sites).toHaveLength(3);
  });

  it('Temporal out of reach: the list is still printed, without counts, and the exit is 2', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const r = await patches(['--json'], {
      CMAUTOBUY_TEMPORAL_ADDRESS: `127.0.0.1:${closed}`,
      CMAUTOBUY_TEMPORAL_NAMESPACE: 'nowhere',
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`patches: could not count the open workflows of namespace nowhere at 127.0.0.1:${closed}`);
    const listed = JSON.parse(r.out) as Listed;
    expect(listed.patches.map((p) => p.id).sort()).toEqual([...callsIn(ROOT).keys()].sort());
    expect(listed.patches.every((p) => p.open_before === null)).toBe(true);
    // bounded by the connect timeout (5 s), not the SDK's retries
    expect(r.ms).toBeLessThan(20_000);
  });
});
