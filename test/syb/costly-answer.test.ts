import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { syncSybOrders, sybSyncStatus } from '../../admin/syb/sync';
import { SYB_LIMITS } from '../../domain/syb';
import { startTestAdmin, type TestAdmin } from '../harness';
import { shipment, startSim, taipeiAt } from './helpers';

const ROOT = path.resolve(__dirname, '../..');

interface Parsed {
  name: string;
  ok: boolean;
  costly?: boolean;
  message?: string;
  lineCount?: number;
  ms: number;
}

/**
 * 顺运宝 answers under the 32 MB cap that cost more to parse than the parser's thread can hold
 * (docs/syb-protocol.md "Limits"). 31 MB of `[{},{},…]` is ten million objects: the thread ran
 * out of heap and V8 aborted the whole admin worker (exit 134), once per retry of the sync. The
 * parser now counts an answer's values, objects and nesting before parsing it and refuses it as
 * SYB_ANSWER_TOO_COSTLY; a thread that dies anyway is replaced for the next answer.
 */
describe('SYB answers too costly to parse', () => {
  it('in a process of its own: each is refused within seconds, the process lives, a dead thread is replaced', async () => {
    // a child process, so that if an answer did abort the process, this test would see it and survive
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/syb/answer-parser-child.ts')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const lines: string[] = [];
    readline.createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    expect({ ...exit, stderr: stderr.slice(0, 2000) }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(lines.at(-1)).toBe('done');
    const results = new Map(
      lines.slice(0, -1).map((l) => {
        const r = JSON.parse(l) as Parsed;
        return [r.name, r];
      }),
    );
    const refused = (name: string, reason: RegExp) => {
      const r = results.get(name);
      expect(r).toMatchObject({ ok: false, costly: true });
      expect(r?.message).toMatch(reason);
      // counted, not parsed: far below the 30 s the thread took to run out of memory before
      expect(r!.ms).toBeLessThan(5_000);
    };
    refused('empty objects', new RegExp(`more than ${SYB_LIMITS.answerContainers} objects and arrays`));
    refused('nesting', new RegExp(`deeper than ${SYB_LIMITS.answerDepth} levels`));
    refused('values', new RegExp(`more than ${SYB_LIMITS.answerValues} values`));
    refused('own keys', /objects and arrays/);
    // the budgets leave a huge but real shipment alone
    expect(results.get('100,000 lines')).toMatchObject({ ok: true, lineCount: 100_000 });
    // a thread that reached its heap limit: a coded refusal, and the next answer gets a fresh thread
    expect(results.get('out of memory')).toMatchObject({ ok: false, costly: true });
    expect(results.get('out of memory')?.message).toMatch(/memory/);
    expect(results.get('after out of memory')).toMatchObject({ ok: true, lineCount: 1 });
    expect(results.get('after refusals')).toMatchObject({ ok: true, lineCount: 1 });
  }, 120_000);

  describe('in a sync', () => {
    let admin: TestAdmin | undefined;
    let sim: Awaited<ReturnType<typeof startSim>> | undefined;
    afterEach(async () => {
      await admin?.close();
      await sim?.close();
    });

    it('the shipment is refused with SYB_ANSWER_TOO_COSTLY, the others stored, the cursor moves; the next sync reads it', async () => {
      sim = await startSim([shipment(1, taipeiAt(0, '08:00:00'), [{ productId: '33300000001', spec: '黑色,M' }])]);
      const costly = {
        id: 'COSTLY-1',
        code: 'TW-COSTLY-1',
        created: taipeiAt(0, '09:00:00'),
        details: [{ id: 'COSTLY-1-L1', productId: '33300000002', title: 't', spec: null, quantity: 1, price: '2' }],
      };
      const put = await fetch(`${sim.url}/control/raw-shipments`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ shipments: [costly] }),
      });
      expect(put.status).toBe(200);
      await sim.control.faults({ costly_shipment: 'COSTLY-1' });
      admin = await startTestAdmin({ runWorker: false, syb: { url: sim.url, ...(await sim.control.credentials()) } });

      const started = Date.now();
      const first = await syncSybOrders(admin.syb);
      const ms = Date.now() - started;
      expect(first).toMatchObject({ lines: 1, new_lines: 1 });
      const stored = async () =>
        (await admin!.db.selectFrom('syb_orders').select('syb_id').orderBy('syb_id').execute()).map((r) => r.syb_id);
      expect(await stored()).toEqual(['SH-T-0001-L1']);
      const status = await sybSyncStatus(admin.db);
      expect(status.last_error).toMatch(
        /^SYB_PARTIAL: .*COSTLY-1 \(SYB_ANSWER_TOO_COSTLY: .*more than 500000 objects and arrays/,
      );
      expect(status.last_synced_at).not.toBeNull();
      expect(ms).toBeLessThan(20_000);

      // the upstream heals: the next sync asks for that shipment again, by id, and stores it
      await sim.control.clearFaults();
      const second = await syncSybOrders(admin.syb);
      expect(second.new_lines).toBe(1);
      expect(await stored()).toEqual(['COSTLY-1-L1', 'SH-T-0001-L1']);
      expect((await sybSyncStatus(admin.db)).last_error).toBeNull();
    }, 120_000);
  });
});
