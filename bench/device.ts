import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AdbDevice } from '../device-worker/adb/adb-device';
import { CounterClock, type DeviceCounters } from '../device-worker/counters';
import { SubmissionLedger } from '../device-worker/ledger/submissions';
import { collectGoods } from '../device-worker/pdd/collect';
import { profileForVersion } from '../device-worker/pdd/profile';
import { PddSession } from '../device-worker/pdd/session';
import { percentile } from './stats';
import { isMeasuredPrice } from '../domain/collect';
import { StepLog } from '../device-worker/step-log';
import { defaultCatalog, startPhoneSim, type LatencyProfile, type PhoneSim } from '../sim/phone';
import { PDD_PACKAGE } from '../domain/pdd-app';
import { benchAgentChannel, type AgentChannelFigures } from './device-agent';
import { freshPhone, livePurchase, PURCHASES, type HierarchyRead } from './device-purchase';

/**
 * What a purchase and a collect cost on a phone: dumps, taps, ADB round trips and wall time, on
 * the simulator's `realistic` latency profile (dump 1.2–2.5 s, tap 80–200 ms, …) with the device
 * worker's own settle pauses — beside the fewest screen observations the flow could make.
 * Evidence is taken as the activities take it (device-worker/pdd/purchase/camera.ts: a dump of
 * the same screen on both sides of each picture), without the upload.
 *
 * These runs read the screen by `uiautomator dump`; bench/device-agent.ts runs the first case again
 * with every read through the on-device agent, and a goods page that never goes idle on each.
 *
 * The floor, counted in dumps (every observation of the screen is one read, dump or agent):
 * - to the final panel: the goods page after opening it (goods and the buy control), the panel
 *   after the buy tap (its dimensions and values), the panel after every option is tapped (what
 *   is selected, Gate 1), and — when the quantity is above one — the panel after the quantity
 *   change (quantity read back, Gate 2 and the submit amount, Gate 3). Options can be tapped
 *   together from the panel's one reading, so they cost one observation, not one per dimension.
 *   Floor: 3 for one piece, 4 otherwise.
 * - submit and observe: one read-only re-check of the final panel before the tap, one look at
 *   the result after it, one at the orders list for the order number: +3.
 * - what the simulator adds on top (sim/phone/SCREENS.md): with two dimensions the sizes are
 *   below the fold until one swipe, whose result is read before a size is tapped (+1); on the
 *   `zero` profile only, the first dump after `am start` and after the submit tap shows the
 *   loading screen (+1 at the goods, +1 after the submit, +1 at the orders list) — on
 *   `realistic` a dump waits for the page to settle, as on a phone.
 * - collect: the goods page, the panel, then one reading per colour and one per row in stock
 *   (each row selected, so its price is measured, not carried over from its colour) — colours +
 *   rows + 2.
 */
export interface DeviceRow {
  what: string;
  counters: DeviceCounters;
  floor: number;
}

export interface DeviceFigures {
  rows: DeviceRow[];
  /** dumps from opening the goods to the final panel, the most over the cases */
  purchaseDumps: number;
  /** for goods priced per colour: dumps minus colours, the most over those goods */
  collectDumpsOverReadings: number;
  /** the first case (one piece) run `runs` times: live to the observed 待付款 order, and to the final panel */
  live: { wallS: number[]; dumps: number[]; throughEvidenceS: number[]; dryRunWallS: number[] };
  /** the first case on the agent channel, both channels' reads, and the never-idle goods page on each */
  agent: AgentChannelFigures;
  json: {
    purchase_dumps: number;
    collect_dumps_over_readings: number;
    live_wall_s: number;
    live_dumps: number;
    dry_run_wall_s: number;
    agent_live_wall_s: number;
    agent_dry_run_wall_s: number;
    agent_read_p95_ms: number;
    /** dump channel: a live purchase on a goods page that never goes idle, until HIERARCHY_UNAVAILABLE */
    never_idle_stop_s: number;
  };
}

export async function benchDevice(opts: {
  latency: LatencyProfile;
  collectGoodsIds?: string[];
  /** how often the first case runs (its medians are the JSON figures); the others run once */
  runs?: number;
  say: (l: string) => void;
}): Promise<DeviceFigures> {
  const serial = 'bench-phone';
  const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: [serial], latency: opts.latency });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-device-'));
  const live: DeviceFigures['live'] = { wallS: [], dumps: [], throughEvidenceS: [], dryRunWallS: [] };
  const dumpRuns: HierarchyRead[][] = [];
  let purchases: { rows: DeviceRow[]; purchaseDumps: number };
  let agent: AgentChannelFigures;
  let collects: { rows: DeviceRow[]; collectDumpsOverReadings: number };
  try {
    const ledger = new SubmissionLedger(path.join(dir, 'ledger.db'));
    try {
      purchases = await purchaseRows(sim, serial, ledger, { live, dumpRuns }, opts);
      const runs = opts.runs ?? 1;
      agent = await benchAgentChannel({ sim, serial, ledger, dir, runs, dumpRuns, say: opts.say });
    } finally {
      ledger.close();
    }
    collects = await collectRows(sim, serial, opts);
  } finally {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const r1 = (x: number) => Math.round(x * 10) / 10;
  return {
    rows: [...purchases.rows, ...collects.rows],
    purchaseDumps: purchases.purchaseDumps,
    collectDumpsOverReadings: collects.collectDumpsOverReadings,
    live,
    agent,
    json: {
      purchase_dumps: purchases.purchaseDumps,
      collect_dumps_over_readings: collects.collectDumpsOverReadings,
      live_wall_s: r1(percentile(live.wallS, 50)),
      live_dumps: percentile(live.dumps, 50),
      dry_run_wall_s: r1(percentile(live.dryRunWallS, 50)),
      agent_live_wall_s: r1(percentile(agent.live.wallS, 50)),
      agent_dry_run_wall_s: r1(percentile(agent.live.dryRunWallS, 50)),
      agent_read_p95_ms: Math.round(percentile(agent.reads.agent.ms, 95)),
      // null in the JSON when the purchase did not stop (JSON.stringify writes NaN as null)
      never_idle_stop_s: r1(agent.neverIdle.dumpStopS ?? NaN),
    },
  };
}

/**
 * Every purchase case live by `uiautomator dump`, the first one `runs` times (its runs fill `live`,
 * their reads `dumpRuns`); the table shows each case once.
 */
async function purchaseRows(
  sim: PhoneSim,
  serial: string,
  ledger: SubmissionLedger,
  { live, dumpRuns }: { live: DeviceFigures['live']; dumpRuns: HierarchyRead[][] },
  opts: { runs?: number; say: (l: string) => void },
): Promise<{ rows: DeviceRow[]; purchaseDumps: number }> {
  const rows: DeviceRow[] = [];
  let purchaseDumps = 0;
  let n = 0;
  const cases = PURCHASES.flatMap((c, i) => Array.from({ length: i === 0 ? Math.max(1, opts.runs ?? 1) : 1 }, () => c));
  for (const c of cases) {
    const first = c === PURCHASES[0];
    const phone = await freshPhone(sim, serial);
    const { prepared, ordered, all, observed } = await livePurchase(phone, ledger, c, String(++n));
    const floor = c.quantity > 1 ? 4 : 3;
    const label = `${c.goodsId} × ${c.quantity} (${Object.keys(c.options).length} dims)`;
    purchaseDumps = Math.max(purchaseDumps, prepared.dumps);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    if (first) {
      dumpRuns.push(phone.reads);
      live.dryRunWallS.push(prepared.wall_ms / 1000);
      live.throughEvidenceS.push(all.wall_ms / 1000);
      if (ordered) {
        live.wallS.push(ordered.wall_ms / 1000);
        live.dumps.push(ordered.dumps);
      }
    }
    // the table shows every case once: the first case's first run
    if (!first || live.dryRunWallS.length === 1) {
      rows.push({ what: `purchase ${label} to the final panel`, counters: prepared, floor });
      if (ordered)
        rows.push({ what: `purchase ${label} to the observed 待付款 order`, counters: ordered, floor: floor + 3 });
      rows.push({
        what: `purchase ${label} through observe and its evidence check (${observed.outcome}${observed.orderNo ? ', order no. read' : ''})`,
        counters: all,
        floor: floor + 3,
      });
    }
    opts.say(
      `device: ${label}: ${prepared.dumps} dumps to the final panel (${s(prepared.wall_ms)}), ${ordered?.dumps ?? '?'} to the observed order (${ordered ? s(ordered.wall_ms) : '?'}), ${all.dumps} through observe (${s(all.wall_ms)})`,
    );
  }
  return { rows, purchaseDumps };
}

/** A collect of each on-sale catalog goods asked for, beside its floor (colours + rows measured + 2). */
async function collectRows(
  sim: PhoneSim,
  serial: string,
  opts: { collectGoodsIds?: string[]; say: (l: string) => void },
): Promise<{ rows: DeviceRow[]; collectDumpsOverReadings: number }> {
  const rows: DeviceRow[] = [];
  let collectDumpsOverReadings = 0;
  const catalog = defaultCatalog().goods.filter(
    (g) => g.status === 'on_sale' && (!opts.collectGoodsIds || opts.collectGoodsIds.includes(g.goods_id)),
  );
  for (const goods of catalog) {
    sim.phone(serial).reset();
    const clock = new CounterClock();
    const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial }, {}, () => clock.roundTrip());
    const profile = profileForVersion(await adb.versionName(PDD_PACKAGE));
    const result = await collectGoods(new PddSession(adb, profile, clock, new StepLog()), goods.goods_id);
    const k = clock.snapshot();
    const colours = goods.dimensions[0]?.values.length ?? 1;
    const readings = (goods.dimensions.length > 1 ? colours : 0) + result.skus.filter(isMeasuredPrice).length;
    const floor = readings + 2;
    collectDumpsOverReadings = Math.max(collectDumpsOverReadings, k.dumps - readings);
    rows.push({
      what: `collect ${goods.goods_id} (${goods.dimensions.length} dims, ${colours} colours, ${result.skus.length} SKUs, priced per ${result.price_granularity})`,
      counters: k,
      floor,
    });
    opts.say(`device: collect ${goods.goods_id}: ${k.dumps} dumps, ${(k.wall_ms / 1000).toFixed(1)} s`);
  }
  return { rows, collectDumpsOverReadings };
}
