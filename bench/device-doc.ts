import { percentile, showSpread, spread } from './stats';
import type { DeviceFigures } from './device';
import type { ChannelReads } from './device-agent';

/**
 * The device part's text in docs/PERFORMANCE.md (bench/performance-doc.ts): its goal rows and its
 * section, each figure beside its floor and what stands between them (the floors are reasoned in
 * bench/device.ts).
 */

/** The device rows of docs/PERFORMANCE.md's goals table. */
export function deviceGoalRows(dv: DeviceFigures): string[] {
  const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
  const j = dv.json;
  return [
    `| live purchase to the observed 待付款 ≤ 20 s, realistic profile, dump channel | ${j.live_wall_s} s | ${yes(j.live_wall_s <= 20)} |`,
    `| ≤ 9 dumps, goods opened → order observed | ${j.live_dumps} | ${yes(j.live_dumps <= 9)} |`,
    `| dry run to the final panel ≤ 13 s, realistic profile | ${j.dry_run_wall_s} s | ${yes(j.dry_run_wall_s <= 13)} |`,
    `| live purchase to the observed 待付款 ≤ 10 s, agent channel (the simulator's estimated agent latencies) | ${j.agent_live_wall_s} s | ${yes(j.agent_live_wall_s <= 10)} |`,
    `| agent read ≤ 400 ms p95 (estimated latencies) | ${j.agent_read_p95_ms} ms | ${yes(j.agent_read_p95_ms <= 400)} |`,
    `| a never-idle goods page stops a dump-channel purchase (HIERARCHY_UNAVAILABLE) ≤ 15 s | ${j.never_idle_stop_s} s | ${yes(j.never_idle_stop_s <= 15)} |`,
  ];
}

/** docs/PERFORMANCE.md's device section: the figures, each beside its floor and what stands between them. */
export function deviceSection(dv: DeviceFigures): string {
  const s = (v: number[], digits = 1) => showSpread(spread(v), digits);
  const runs = dv.live.wallS.length;
  return `### Device economy on the \`realistic\` profile (\`bench/device.ts\`)

One phone on the simulator's \`realistic\` profile (dump 1.2–2.5 s, tap 80–200 ms, am start
0.6–1.2 s, screenshot 0.3–0.6 s plus the simulator drawing the PNG, a page's settle 0.3–1.5 s; a
dump reads the tree once the page has settled, as \`uiautomator dump\` waits for the app to be
idle, sim/phone/SCREENS.md) with the device worker's default waits (\`DEFAULT_TIMING\` in
\`device-worker/pdd/session/timing.ts\`): no pause after any input — the first dump after it is the
wait; a loading, stale or unchanged dump is looked at again at once, then after ¼, ½ and 1 × 500 ms.
Evidence is taken as the activities take it: each picture with a dump of the same screen on both
sides (\`device-worker/pdd/purchase/camera.ts\`), the flow's own next dump being the second
wherever it makes one. The first case (one piece, live) ran ${runs} time(s): its figures are the
median with the range in brackets; the table shows its first run and every other case once. The
floor column is the fewest dumps the flow could make by the reasoning in \`bench/device.ts\`
(3 / 4 to the final panel, +3 to the order) — without the reveal.

| flow | dumps | floor | taps | ADB round trips | wall s |
|---|---|---|---|---|---|
${dv.rows.map((r) => `| ${r.what} | ${r.counters.dumps} | ${r.floor} | ${r.counters.taps} | ${r.counters.adb_round_trips} | ${(r.counters.wall_ms / 1000).toFixed(1)} |`).join('\n')}

| figure (one piece, live) | measured | goal | floor on this simulator |
|---|---|---|---|
| open the goods → the observed 待付款 order (\`device.live_wall_s\`) | ${s(dv.live.wallS)} s | ≤ 20 s | about 20 s |
| dumps, goods opened → order observed (\`device.live_dumps\`) | ${s(dv.live.dumps, 0)} | ≤ 9 | 9 |
| dry run: open the goods → the final panel (\`device.dry_run_wall_s\`) | ${s(dv.live.dryRunWallS)} s | ≤ 13 s | about 13 s |
| the observe activity through its evidence check | ${s(dv.live.throughEvidenceS)} s | — | live + one dump |

${channelsSection(dv)}

To the final panel: **${dv.purchaseDumps} dumps** at most. A collect costs one dump per colour and
per row it measures, + ${dv.collectDumpsOverReadings} at most.

What stands between each figure and its floor:

- **Dumps (9).** Nine proofs the flow keeps exactly as strict: the goods page, the panel, the
  read-back of each option, the sizes after the one reveal swipe, Gate 3's fresh read, submitOnce's
  re-check before its tap, the result, the orders list. Below nine only by dropping a proof, which
  is not done. No dump is spent on a loading screen: a dump reads the tree once the page has
  settled, as on a phone (a phone whose dump returns mid-load anyway shows the loading marker, and
  the session looks again — the zero profile's counted loading dump and the \`loading_dumps\` fault
  keep that path tested). Already cut: Gate 2 at one piece is read from the dump that proved the
  selection and Gate 1 (the same proof; a price change after it is still seen by Gate 3's fresh
  read), and the evidence pictures cost no dump of their own at one piece (the picture between the
  selection's read-back and Gate 3's read names both Gate 1 and Gate 3). At two pieces or more
  Gate 1's picture is checked by the first "+"'s read-back, which must show exactly that step.
  The orders list's picture is checked by one dump after the order was read (the last column).
- **Live wall time.** The floor is the dumps at their mean (9 × 1.85 s ≈ 16.7 s) plus two \`am start\`
  (≈ 1.8 s), four taps and the swipe (≈ 1 s), one screenshot (≈ 0.5 s) and what a page's settle
  outlasts the dump that waits for it — about 20 s. Beyond the floor in a run: the machine's load —
  the simulator draws each screenshot's PNG on the shared cores (2–3.5 s per picture at a load
  average of 20, against 0.3–0.6 s by the profile) and every ADB round trip waits for a core.
- **Dry run.** Six dumps (goods, panel, two options, sizes, Gate 3; ≈ 11 s), \`am start\`, three
  taps, the swipe and one screenshot: about 13 s, the goal itself.`;
}

/** The two read channels side by side: the same one-piece case by \`uiautomator dump\` and through the agent. */
function channelsSection(dv: DeviceFigures): string {
  const s = (v: number[], digits = 1) => (v.length ? showSpread(spread(v), digits) : 'none');
  const a = dv.agent;
  const ms = (r: ChannelReads, p: number) => (r.ms.length ? `${Math.round(percentile(r.ms, p))} ms` : 'none');
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const other = (r: ChannelReads) => (r.other === 0 ? 'none' : `**${r.other}**`);
  const stop = a.neverIdle.dumpStopS;
  const stopped =
    stop === null
      ? '**did not stop**'
      : `stops with \`HIERARCHY_UNAVAILABLE\` after ${stop.toFixed(1)} s (\`device.never_idle_stop_s\`): ${count(a.neverIdle.dumpReads, 'read')} (the last one refused after its wait for idle), ${count(a.neverIdle.dumpTaps, 'tap')}`;
  const completed =
    a.neverIdle.agentWallS === null
      ? '**did not complete**'
      : `completes: ${a.neverIdle.agentWallS.toFixed(1)} s to the observed order`;
  return `#### The two read channels

The same one-piece case, live, ${a.live.wallS.length} time(s) with every read through the on-device
agent (the UiAutomator2 server, \`device-worker/agent/phone-agent.ts\`; installed from stand-in APKs
and started before the clock starts, as a worker's agent is already running), beside the dump
runs above. Every \`dumpUi()\` is timed, from the call until the tree (or the refusal) is back.
The agent's latencies are **the simulator's estimates, not measured on a phone**: start 1.5–3 s
after \`am instrument\`, \`GET /source\` 0.15–0.35 s (\`agent_start\`, \`agent_source\` in
\`sim/phone/latency.ts\`, written down in sim/phone/SCREENS.md, *The UiAutomator2 server*). The
agent reads without waiting for idle (\`waitForIdleTimeout\` 0), so a page still settling is read
as it is and looked at again, as a loading or unchanged dump is, where a dump waits for it: that is
where its extra reads per purchase come from, each a fraction of a dump's time. The last row: a live
purchase while the goods page and the spec panel never go idle (fault \`never_idle\`, as a
countdown does on a phone).

| figure (one piece, live) | dump channel | agent channel | goal (dump / agent) |
|---|---|---|---|
| open the goods → the observed 待付款 order (\`device.live_wall_s\` / \`device.agent_live_wall_s\`) | ${s(dv.live.wallS)} s | ${s(a.live.wallS)} s | ≤ 20 s / ≤ 10 s |
| dry run: open the goods → the final panel (\`device.dry_run_wall_s\` / \`device.agent_dry_run_wall_s\`) | ${s(dv.live.dryRunWallS)} s | ${s(a.live.dryRunWallS)} s | ≤ 13 s / — |
| ms per read, p50 | ${ms(a.reads.dump, 50)} | ${ms(a.reads.agent, 50)} | — |
| ms per read, p95 (\`device.agent_read_p95_ms\`) | ${ms(a.reads.dump, 95)} | ${ms(a.reads.agent, 95)} | — / ≤ 400 ms |
| reads per purchase, goods opened → the observe activity's evidence check | ${s(a.reads.dump.perPurchase, 0)} | ${s(a.reads.agent.perPurchase, 0)} | — |
| reads the other channel answered | ${other(a.reads.dump)} | ${other(a.reads.agent)} | none |
| goods page and spec panel never idle | ${stopped} | ${completed} | stop ≤ 15 s / completes |`;
}
