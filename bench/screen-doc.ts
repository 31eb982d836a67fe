import type { ScreenFigures } from './screen';
import { percentile } from './stats';

/**
 * The live screen's text in docs/PERFORMANCE.md (bench/performance-doc.ts): its goal rows and its
 * section. The goals: a minicap stream fast enough to work a phone by (≥ 10 frames a second), an
 * input shown within a person's reaction (p50 ≤ 300 ms), and eight watched phones costing the admin
 * no more than a small fraction of its memory (≤ 100 MiB).
 */
const GOAL = { minicapFps: 10, inputToFrameP50Ms: 300, eightViewersMib: 100 };

const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;
const ms = (v: number[], p: number) => (v.length ? `${Math.round(percentile(v, p))}` : 'none');

/** The live screen's rows of docs/PERFORMANCE.md's goals table. */
export function screenGoalRows(f: ScreenFigures): string[] {
  const j = f.json;
  return [
    `| live screen ≥ ${GOAL.minicapFps} frames/s, one viewer, minicap path | ${j.minicap_fps} | ${yes(j.minicap_fps >= GOAL.minicapFps)} |`,
    ...(j.scrcpy_fps === null
      ? []
      : [
          `| live screen ≥ ${GOAL.minicapFps} frames/s, one viewer, scrcpy path | ${j.scrcpy_fps} | ${yes(j.scrcpy_fps >= GOAL.minicapFps)} |`,
        ]),
    `| input → changed frame p50 ≤ ${GOAL.inputToFrameP50Ms} ms, minicap path | ${j.input_to_frame_p50_ms} ms | ${yes(j.input_to_frame_p50_ms <= GOAL.inputToFrameP50Ms)} |`,
    `| 8 phones watched at once add ≤ ${GOAL.eightViewersMib} MiB to the admin | ${j.eight_viewers_admin_rss_mib} MiB | ${yes(j.eight_viewers_admin_rss_mib <= GOAL.eightViewersMib)} |`,
  ];
}

/** A phone minicap has no build for: its path, as the stream's meta named it, keys its figure. */
function noBuildRow(n: ScreenFigures['noBuild'][number]): string {
  const path = String(n.meta.path);
  const goal = path === 'scrcpy' ? `≥ ${GOAL.minicapFps}` : '—';
  return `| frames/s, one viewer, API ${n.sdk} (no minicap build): ${path} path (\`screen.${path}_fps\`) | ${n.fps.toFixed(1)} (${String(n.meta.codec)}, ${kib(n.bytesPerS)}/s; first frame ${Math.round(n.firstFrameMs)} ms after opening) | ${goal} |`;
}

/** docs/PERFORMANCE.md's live-screen section. */
export function screenSection(f: ScreenFigures): string {
  const { minicap: m, noBuild: n, inputs: i, eight: e } = f;
  const perViewer = `${Math.min(...e.fps).toFixed(1)}–${Math.max(...e.fps).toFixed(1)}`;
  const missed = i.missed ? `, **${i.missed} missed** (no changed frame in 5 s)` : '';
  return `### The live screen (\`bench/screen.ts\`)

An admin process (HTTP only, as \`npm start\` runs it), a phone host in the bench's process as
\`npm run phone-host\` runs it (its device workers real processes; the clock starts once every one
is up) and the simulator's phones on the \`zero\` profile, in the bench's process too. A viewer is a
WebSocket client of \`/api/devices/:id/screen/stream\` with an operator's session, as the browser is.
Each stream was watched ${f.seconds} s after its first frame. The simulator's minicap sends a frame
every 70 ms whether the screen changed or not (\`FRAME_INTERVAL_MS\`, sim/phone/screen/minicap.ts):
about 14.3 a second is its ceiling, and an unchanged screen's frame is the same JPEG byte for byte.
A phone minicap has no build for streams by scrcpy (H.264) from API 21, by screencap below
(\`chooseScreenPath\`, phone-host/screen/stream.ts): the simulator's phones are arm64-v8a, whose
builds start at API 21, so API 33 is scrcpy's and API 19 screencap's. Screencap takes one capture at
a time, at most 2 a second (phone-host/screen/screencap.ts); on the \`zero\` profile a capture
costs the simulator's drawing of the PNG (a phone takes 0.3–1 s).

Input → changed frame: the phone held (\`POST /api/devices/:id/hold\`), then a tap on the launcher's
拼多多 icon (the app opens) and the home key (the launcher again) by turns, ${i.sent} inputs, each
timed from sending its \`POST /api/devices/:id/input\` to the first frame whose bytes differ from the
frame before. Frame age, for the taps only (the simulator logs a tap with the time it applied it,
\`GET /devices/:serial/taps\`'s \`at\`, in ms; a key is not logged): from that moment to the frame's
arrival — the phone's side (the next tick, drawing, scaling and encoding the new screen) and the
way back (ADB → host → admin → viewer); a tap's input → changed frame less its frame age is the way
there (admin → host → \`input\` over ADB). The two percentiles are of different inputs: the app's
page takes longer to draw than the launcher. The simulator, the host and the viewers share the bench's
process and, with the device workers and the admin, the machine's cores.

Eight phones at once: one viewer each; the admin's CPU from \`/proc/<pid>/stat\` (user + system)
over the ${f.seconds} s, against the same span just before with the phones approved and no stream; its
resident set (VmRSS) just before the streams opened and its peak, sampled every 200 ms, from their
opening to the end of the span (a negative growth is memory the garbage collector gave back).

| figure (\`--json\` key) | measured | goal |
|---|---|---|
| frames/s, one viewer, minicap path, API 30 (\`screen.minicap_fps\`) | **${m.fps.toFixed(1)}** (${String(m.meta.codec)}, ${kib(m.bytesPerS)}/s; first frame ${Math.round(m.firstFrameMs)} ms after opening) | ≥ ${GOAL.minicapFps} |
${n.map(noBuildRow).join('\n')}
| input → changed frame p50 / p95, ms (\`screen.input_to_frame_p50_ms\`, \`…_p95_ms\`) | **${ms(i.inputToFrameMs, 50)}** / ${ms(i.inputToFrameMs, 95)} (${i.inputToFrameMs.length} inputs${missed}) | p50 ≤ ${GOAL.inputToFrameP50Ms} |
| frame age p50 / p95, ms, taps (\`screen.frame_age_p50_ms\`, \`…_p95_ms\`) | ${ms(i.frameAgeMs, 50)} / ${ms(i.frameAgeMs, 95)} (${i.frameAgeMs.length} taps) | — |
| 8 viewers: the admin's RSS, growth (\`screen.eight_viewers_admin_rss_mib\`) | **${f.json.eight_viewers_admin_rss_mib} MiB** (${e.rssBeforeMib.toFixed(0)} → peak ${e.rssPeakMib.toFixed(0)} MiB) | ≤ ${GOAL.eightViewersMib} MiB |
| 8 viewers: the admin's CPU, % of one core (\`screen.eight_viewers_admin_cpu_pct\`) | ${e.adminCpuPct.toFixed(1)} (${e.adminIdleCpuPct.toFixed(1)} with no stream) | — |
| 8 viewers: bytes/s per viewer (\`screen.bytes_per_s_per_viewer\`) | ${kib(e.bytesPerSPerViewer)}/s (${perViewer} frames/s each) | — |

What stands between each figure and its floor:

- **Frames a second.** The minicap figure is the simulator's tick, not the pipeline's: the admin
  and the host pass every frame on as it comes, and drop one only for a viewer more than 2 MiB
  behind (admin/hosts/phone-screen.ts) or a host channel behind (phone-host/admin-channel.ts).
- **Input → changed frame.** Its floor on this simulator is the phone's side: up to one tick
  (70 ms) until the new screen is drawn, and the drawing, scaling and encoding of it — about
  110–190 ms at 540×1188 on an idle core (sim/phone/SCREENS.md; the host asks for a long side of
  1280 px, phone-host/screen/stream.ts) — so about 150–260 ms; the rest is the way there and back
  through the admin and the host, on loopback, and every hop waiting for a core.
- **Eight viewers.** The admin queues no frame: each is written to the viewer's socket as it comes
  (one host stream per phone however many watch it), so its memory is the sockets' buffers and its
  CPU the writes: ${kib(e.bytesPerSPerViewer * e.phones)}/s in and out for ${e.phones} viewers.`;
}
