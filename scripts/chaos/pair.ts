import Database from 'better-sqlite3';
import path from 'node:path';
import { isPaymentTap, isSubmitTap } from '../../sim/phone/taps';
import { startReferencePurchase } from '../../test/reference-purchase';
import type { TapRecord } from '../../sim/phone';
import type { ChaosController } from './controller';
import { judge, type Outcome, type PairFacts } from './invariants';
import type { ChaosPair } from './matrix';
import type { ChaosSystem } from './system';

/** One row of the report (the contract of `npm run chaos -- --json`). */
export interface PairResult {
  step: string;
  process: string;
  outcome: Outcome | 'NOT_REACHED';
  orders: number;
  payment_taps: number;
  over_cap: number;
  recovered_s: number | null;
  ok: boolean;
  /** what broke, in words; empty when ok */
  broken: string[];
  /** the points passed while armed, for the reader of a failure */
  trail: string[];
}

/** The purchase each step needs to be reached: a live one that buys, or one the phone leaves unclear. */
interface Scenario {
  quantity: number;
  maxTotalPriceCent: number;
  /** the simulator's faults on every phone (sim/phone/faults.ts) */
  faults?: Record<string, unknown>;
  /** popups the app shows (sim/phone/SCREENS.md "How an overlay shows") */
  overlays?: object[];
}
// two pieces: the quantity is stepped, so its taps are points too
const LIVE: Scenario = { quantity: 2, maxTotalPriceCent: 4000 };
const POPUP: Scenario = { ...LIVE, overlays: [{ template: 'limited_deal_mask', when: 'open' }] };
const NETWORK_ERROR: Scenario = { ...LIVE, faults: { page_on: { open: 'network_error' } } };
const SCENARIOS: Record<string, Scenario> = {
  // the cashier never shows: the order is settled by the read-only look at the orders list
  reconcile: { ...LIVE, faults: { submit_outcome: 'created_then_hang' } },
  'close_popup:before': POPUP,
  'close_popup:after': POPUP,
  'reopen_goods:before': NETWORK_ERROR,
  'reopen_goods:after': NETWORK_ERROR,
};

const SETTLED = [
  'WAITING_PAYMENT',
  'RECONCILIATION_REQUIRED',
  'NEEDS_MANUAL',
  'FAILED',
  'EXPIRED',
  'CANCELED',
  'DRY_RUN_PASSED',
];
/** the promise: a defined state within 5 minutes of the kill */
const SETTLE_LIMIT_MS = 5 * 60_000;

type Phone = {
  device_id: string;
  serial: string | null;
  online: boolean;
  current_task_id: string | null;
  attention: { reason_code: string } | null;
  claim_block?: { reason_code: string } | null;
  state?: string;
};

export class PairRunner {
  private serials: Promise<string[]> | null = null;

  constructor(
    private readonly system: ChaosSystem,
    private readonly controller: ChaosController,
    private readonly say: (line: string) => void,
  ) {}

  async run(pair: ChaosPair): Promise<PairResult> {
    const scenario = SCENARIOS[pair.step] ?? LIVE;
    await this.readyPhones(scenario);
    this.controller.arm(pair);
    const startedAt = Date.now();
    const taskId = await startReferencePurchase(this.system.op, { mode: 'live', ...scenario });
    const task = await this.waitSettled(taskId, startedAt);
    const firedAt = this.controller.firedAt();
    const trail = [...this.controller.seen];
    this.controller.disarm(taskId);
    const phones = await this.phonesBack();
    const facts = await this.facts(taskId, scenario, task, phones);
    const verdict = judge(facts);
    const recoveredAt = Date.now();
    const result: PairResult = {
      step: pair.step,
      process: pair.process,
      outcome: firedAt === null ? 'NOT_REACHED' : verdict.outcome,
      orders: facts.orders.length,
      payment_taps: facts.paymentTaps,
      over_cap: verdict.overCap,
      recovered_s: firedAt === null ? null : Math.round((task.settledAt ?? recoveredAt) - firedAt) / 1000,
      ok: verdict.broken.length === 0,
      broken: verdict.broken,
      trail,
    };
    this.say(
      `${pair.step} × ${pair.process}: ${result.outcome} ${task.status}${task.reason_code ? ` ${task.reason_code}` : ''}` +
        ` orders=${result.orders} recovered=${result.recovered_s ?? '-'}s ${result.ok ? 'ok' : `BROKEN: ${result.broken.join('; ')}`}` +
        (result.ok && firedAt !== null ? '' : ` (trail: ${trail.join(' → ')})`),
    );
    return result;
  }

  /** Both phones reset (no orders, no taps), the scenario's faults on, each claiming again. */
  private async readyPhones(s: Scenario): Promise<void> {
    const sim = this.system.simControl;
    const put = (url: string, body: unknown) =>
      fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const serials = await this.simSerials();
    for (const serial of serials) {
      await fetch(`${sim}/devices/${serial}/faults`, { method: 'DELETE' });
      await fetch(`${sim}/devices/${serial}/overlays`, { method: 'DELETE' });
      await fetch(`${sim}/devices/${serial}/reset`, { method: 'POST' });
      if (s.faults) await put(`${sim}/devices/${serial}/faults`, s.faults);
      if (s.overlays) await put(`${sim}/devices/${serial}/overlays`, { overlays: s.overlays });
    }
    const deadline = Date.now() + 180_000;
    for (;;) {
      const phones = await this.phones();
      for (const p of phones.filter((x) => x.attention))
        await this.system.op.post(`/api/devices/${p.device_id}/resume`);
      if (phones.length > 0 && phones.every(claiming)) return;
      if (Date.now() > deadline)
        throw new Error(`the phones did not come back to claiming within 3 min: ${JSON.stringify(phones)}`);
      await sleep(1000);
    }
  }

  /** The task once it rests (a 待核对 is given time for the workflow's own read-only check), or as it is at the limit. */
  private async waitSettled(taskId: string, startedAt: number) {
    type Task = { status: string; reason_code: string | null; pdd_order_no: string | null };
    let firstSettled: number | null = null;
    for (;;) {
      const res = await this.system.op.get(`/api/tasks/${taskId}`).catch(() => null);
      const t = res?.status === 200 ? (res.body as Task) : null;
      const since = this.controller.firedAt() ?? startedAt;
      const late = Date.now() - since > SETTLE_LIMIT_MS;
      if (t && SETTLED.includes(t.status)) {
        firstSettled ??= Date.now();
        const waitMore = t.status === 'RECONCILIATION_REQUIRED' && Date.now() - firstSettled < 60_000 && !late;
        if (!waitMore) return { ...t, settledInTime: true, settledAt: firstSettled };
      } else firstSettled = null;
      if (late)
        return {
          ...(t ?? { status: 'UNKNOWN', reason_code: null, pdd_order_no: null }),
          settledInTime: false,
          settledAt: null,
        };
      await sleep(500);
    }
  }

  /** Each phone, once it claims again or is flagged (at most 2 minutes). */
  private async phonesBack(): Promise<Phone[]> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const phones = await this.phones().catch(() => [] as Phone[]);
      if ((phones.length > 0 && phones.every((p) => claiming(p) || flagged(p))) || Date.now() > deadline) return phones;
      await sleep(1000);
    }
  }

  /** The simulator's phones, asked once: the run adds none. */
  private simSerials(): Promise<string[]> {
    this.serials ??= fetch(`${this.system.simControl}/devices`)
      .then((r) => r.json() as Promise<{ serial: string }[]>)
      .then((ds) => ds.map((d) => d.serial));
    return this.serials;
  }

  private async phones(): Promise<Phone[]> {
    const res = await this.system.op.get('/api/devices');
    if (res.status !== 200) return [];
    return res.body as Phone[];
  }

  private async facts(
    taskId: string,
    s: Scenario,
    task: { status: string; reason_code: string | null; pdd_order_no: string | null; settledInTime: boolean },
    phones: Phone[],
  ): Promise<PairFacts> {
    const sim = this.system.simControl;
    const orders: PairFacts['orders'] = [];
    const taps: TapRecord[] = [];
    const serials = await this.simSerials();
    for (const serial of serials) {
      orders.push(...((await (await fetch(`${sim}/devices/${serial}/orders`)).json()) as PairFacts['orders']));
      taps.push(...((await (await fetch(`${sim}/devices/${serial}/taps`)).json()) as TapRecord[]));
    }
    const db = new Database(path.join(this.system.dataDir, 'admin.db'), { readonly: true, fileMustExist: true });
    try {
      const fences = db.prepare('SELECT status, abandoned_at FROM order_submissions WHERE task_id = ?').all(taskId) as {
        status: string;
        abandoned_at: string | null;
      }[];
      return {
        maxTotalPriceCent: s.maxTotalPriceCent,
        orders,
        submitTaps: taps.filter(isSubmitTap).length,
        paymentTaps: taps.filter(isPaymentTap).length,
        task: { status: task.status, reason_code: task.reason_code, pdd_order_no: task.pdd_order_no },
        settledInTime: task.settledInTime,
        fences: fences.map((f) => ({ status: f.status, abandoned: f.abandoned_at !== null })),
        phones: phones.map((p) => ({
          device_id: p.device_id,
          claiming: claiming(p),
          flagged: p.attention?.reason_code ?? p.claim_block?.reason_code ?? null,
        })),
      };
    } finally {
      db.close();
    }
  }
}

const claiming = (p: Phone) =>
  p.online && p.current_task_id === null && !p.attention && !p.claim_block && (p.state ?? 'active') === 'active';
const flagged = (p: Phone) => Boolean(p.attention ?? p.claim_block);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
