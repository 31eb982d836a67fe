import { AdbDevice } from '../device-worker/adb/adb-device';
import { PhoneAgent } from '../device-worker/agent/phone-agent';
import { isDeviceError } from '../device-worker/errors';
import type { SubmissionLedger } from '../device-worker/ledger/submissions';
import { createLogger } from '../platform/logger';
import type { PhoneSim } from '../sim/phone';
import { writeStandInApks } from '../sim/phone/agent/stand-in-apks';
import { freshPhone, livePurchase, PURCHASES, type HierarchyRead } from './device-purchase';

/**
 * The device part on the agent channel (bench/device.ts runs the dump channel): the first purchase
 * case read through the on-device agent, and one live purchase on a goods page and spec panel that
 * never go idle on each channel — the agent reads them as they are and the purchase completes; a
 * `uiautomator dump` is refused after its 10 s wait for idle and the purchase stops with
 * HIERARCHY_UNAVAILABLE at that first refusal. The agent's latencies are the simulator's estimates
 * (sim/phone/latency.ts `agent_start`, `agent_source`), not measured on a phone.
 */

/** The hierarchy reads of some purchases on one channel. */
export interface ChannelReads {
  /** ms per read, over every purchase, of the reads this channel answered */
  ms: number[];
  /** reads per purchase, goods opened → the observe activity's evidence check */
  perPurchase: number[];
  /** reads another channel answered (an agent read that failed falls back to a dump) */
  other: number;
}

export interface AgentChannelFigures {
  /** the first case, live, `runs` times on the agent channel: to the observed 待付款 order, and to the final panel */
  live: { wallS: number[]; dryRunWallS: number[] };
  reads: { dump: ChannelReads; agent: ChannelReads };
  neverIdle: {
    /** the live purchase through the agent, to the observed order; null if it did not complete */
    agentWallS: number | null;
    /** the dump channel: from the clock's start until HIERARCHY_UNAVAILABLE was thrown; null if it was not */
    dumpStopS: number | null;
    /** the dump channel's reads until it stopped (the last one the refusal) */
    dumpReads: number;
    /** the dump channel's taps until it stopped */
    dumpTaps: number;
  };
}

/** Goods page and spec panel both never go idle (a countdown, as on a real goods page). */
const NEVER_IDLE = { never_idle: ['goods_detail', 'sku_panel'] };

export function channelReads(runs: HierarchyRead[][], channel: HierarchyRead['channel']): ChannelReads {
  const all = runs.flat();
  return {
    ms: all.filter((r) => r.channel === channel).map((r) => r.ms),
    perPurchase: runs.map((r) => r.length),
    other: all.filter((r) => r.channel !== channel).length,
  };
}

/** The agent-channel runs; `dumpRuns` are the reads of the same case's dump-channel runs. */
export async function benchAgentChannel(opts: {
  sim: PhoneSim;
  serial: string;
  ledger: SubmissionLedger;
  /** a scratch directory for the stand-in APKs */
  dir: string;
  runs: number;
  dumpRuns: HierarchyRead[][];
  say: (l: string) => void;
}): Promise<AgentChannelFigures> {
  const { sim, serial, ledger, say } = opts;
  const apks = writeStandInApks(opts.dir);
  const agent = new PhoneAgent({
    // its own connection, as the worker gives it
    adb: new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial }),
    log: createLogger({ name: 'bench-agent', level: 'silent' }),
    retryMs: 0,
    apks: () => apks,
  });
  const c = PURCHASES[0]!;
  const live: AgentChannelFigures['live'] = { wallS: [], dryRunWallS: [] };
  const agentRuns: HierarchyRead[][] = [];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  try {
    for (let n = 1; n <= Math.max(1, opts.runs); n += 1) {
      const phone = await freshPhone(sim, serial, { agent });
      const { prepared, ordered } = await livePurchase(phone, ledger, c, `agent-${n}`);
      agentRuns.push(phone.reads);
      live.dryRunWallS.push(prepared.wall_ms / 1000);
      if (ordered) live.wallS.push(ordered.wall_ms / 1000);
      const agentReads = phone.reads.filter((r) => r.channel === 'agent').length;
      say(
        `device, agent channel: ${c.goodsId} × ${c.quantity}: ${s(prepared.wall_ms)} to the final panel, ${ordered ? s(ordered.wall_ms) : '?'} to the observed order, ${phone.reads.length} reads (${agentReads} through the agent)`,
      );
    }
    const agentWallS = await neverIdleOnAgent(sim, serial, ledger, agent, say);
    // the dump channel's phone is reset (the agent killed) and its reads never ask the agent
    const stop = await neverIdleOnDump(sim, serial, ledger, say);
    return {
      live,
      reads: { dump: channelReads(opts.dumpRuns, 'dump'), agent: channelReads(agentRuns, 'agent') },
      neverIdle: { agentWallS, dumpStopS: stop.s, dumpReads: stop.reads, dumpTaps: stop.taps },
    };
  } finally {
    await agent.stop();
  }
}

/** The never-idle purchase through the agent: its wall time to the observed order, or null when it did not complete. */
async function neverIdleOnAgent(
  sim: PhoneSim,
  serial: string,
  ledger: SubmissionLedger,
  agent: PhoneAgent,
  say: (l: string) => void,
): Promise<number | null> {
  const phone = await freshPhone(sim, serial, { agent, faults: NEVER_IDLE });
  try {
    const { ordered } = await livePurchase(phone, ledger, PURCHASES[0]!, 'never-idle-agent');
    say(
      `device, agent channel, never-idle goods page: ${ordered ? `${(ordered.wall_ms / 1000).toFixed(1)} s to the observed order` : 'no order observed'}, ${phone.reads.length} reads`,
    );
    return ordered ? ordered.wall_ms / 1000 : null;
  } catch (err) {
    if (!isDeviceError(err)) throw err;
    say(`device, agent channel, never-idle goods page: stopped with ${err.code} — the agent did not read it`);
    return null;
  }
}

/** The never-idle purchase by `uiautomator dump`: the time until it stopped with HIERARCHY_UNAVAILABLE. */
async function neverIdleOnDump(
  sim: PhoneSim,
  serial: string,
  ledger: SubmissionLedger,
  say: (l: string) => void,
): Promise<{ s: number | null; reads: number; taps: number }> {
  const phone = await freshPhone(sim, serial, { faults: NEVER_IDLE });
  try {
    await livePurchase(phone, ledger, PURCHASES[0]!, 'never-idle-dump');
    say('device, dump channel, never-idle goods page: the purchase did not stop — expected HIERARCHY_UNAVAILABLE');
    return { s: null, reads: phone.reads.length, taps: sim.phone(serial).taps.length };
  } catch (err) {
    if (!isDeviceError(err) || err.code !== 'HIERARCHY_UNAVAILABLE') throw err;
    const s = phone.clock.snapshot().wall_ms / 1000;
    const taps = sim.phone(serial).taps.length;
    say(
      `device, dump channel, never-idle goods page: HIERARCHY_UNAVAILABLE after ${s.toFixed(1)} s, ${phone.reads.length} read(s), ${taps} tap(s)`,
    );
    return { s, reads: phone.reads.length, taps };
  }
}
