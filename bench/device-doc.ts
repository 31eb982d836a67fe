import { showSpread, spread } from './stats';
import type { DeviceFigures } from './device';

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
    `| live purchase to the observed 待付款 ≤ 20 s, realistic profile | ${j.live_wall_s} s | ${yes(j.live_wall_s <= 20)} |`,
    `| ≤ 9 dumps, goods opened → order observed | ${j.live_dumps} | ${yes(j.live_dumps <= 9)} |`,
    `| dry run to the final panel ≤ 13 s, realistic profile | ${j.dry_run_wall_s} s | ${yes(j.dry_run_wall_s <= 13)} |`,
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

To the final panel: **${dv.purchaseDumps} dumps** at most. A collect priced per colour costs colours +
${dv.collectDumpsOverColours} dumps at most.

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
