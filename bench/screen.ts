import fs from 'node:fs';
import path from 'node:path';
import type { DeviceView } from '../domain/devices';
import type { PhoneInput } from '../domain/phone-input';
import { stopChild, type RunningChild } from '../platform/children';
import { PhoneHost } from '../phone-host/host';
import { HostMetrics } from '../phone-host/metrics';
import { startPhoneSim, type PhoneSim } from '../sim/phone';
import { testLogger, type OperatorClient } from '../test/harness';
import { cpuMs } from './stack';
import { operator, startAdminProcess } from './stack-processes';
import { rssMib, Viewer } from './screen-viewer';
import { percentile } from './stats';
import type { BenchTemporal } from './temporal';

/**
 * The live screen (docs/api.md §12.3) as an operator's browser gets it: an admin process (HTTP
 * only, as `npm start` runs it), a real phone host in this process — its device workers real
 * processes in the bench's Temporal namespace — and the simulator's phones on the `zero` profile,
 * in this process too. Viewers are WebSocket clients of the admin's stream, with an operator's
 * session. What is measured:
 * - one viewer of one phone for `seconds`: frames a second on the minicap path (the simulator's
 *   default phone, API 30), then on phones minicap has no build for (fault `android_sdk`, set
 *   before the stream starts): API 33, scrcpy's (screencap's on a host without that path), and
 *   API 19, screencap's (below scrcpy's API 21; the simulator's ABI has no minicap build below
 *   21) — each figure under the key of the path the stream's meta names;
 * - input → changed frame: the phone held, then a tap on the launcher's 拼多多 icon (opens the app)
 *   and the home key (back to the launcher) by turns, each timed from sending its
 *   `POST /api/devices/:id/input` until the first frame whose bytes differ from the frame before
 *   (the simulator sends an unchanged screen's JPEG again, byte for byte); for the taps also the
 *   frame's age: from the moment the simulator applied the tap (its tap log's `at`) to the frame;
 * - 8 phones watched at once, one viewer each: the admin process's CPU (/proc, against the same
 *   span with no stream), its resident set before the streams and at its peak while they run, and
 *   bytes a second per viewer.
 */
export interface ScreenFigures {
  seconds: number;
  minicap: StreamFigures;
  /** phones minicap has no build for, by API level */
  noBuild: Array<StreamFigures & { sdk: number }>;
  inputs: { sent: number; missed: number; inputToFrameMs: number[]; frameAgeMs: number[] };
  eight: {
    phones: number;
    fps: number[];
    bytesPerSPerViewer: number;
    adminCpuPct: number;
    adminIdleCpuPct: number;
    rssBeforeMib: number;
    rssPeakMib: number;
  };
  json: {
    minicap_fps: number;
    /** the first phone's whose stream was screencap's; null when none was */
    screencap_fps: number | null;
    /** the first phone's whose stream was scrcpy's; null when none was */
    scrcpy_fps: number | null;
    input_to_frame_p50_ms: number;
    input_to_frame_p95_ms: number;
    frame_age_p50_ms: number;
    frame_age_p95_ms: number;
    /** the admin's resident set at its peak with 8 streams, over its resident set before them */
    eight_viewers_admin_rss_mib: number;
    /** of one core, while 8 streams ran */
    eight_viewers_admin_cpu_pct: number;
    bytes_per_s_per_viewer: number;
  };
}

export interface StreamFigures {
  /** what the stream's first text message said */
  meta: Record<string, unknown>;
  /** from opening the socket to its first frame */
  firstFrameMs: number;
  fps: number;
  bytesPerS: number;
}

const PASSWORD = 'bench-admin-password-0123';
const PHONES = 8;
/** API levels the simulator's ABI (arm64-v8a) has no minicap build for: scrcpy's, and below it */
const NO_BUILD_SDKS = [33, 19];
/** the launcher's 拼多多 icon, [60,1900][300,2140] (sim/phone/SCREENS.md) */
const OPEN_APP: PhoneInput = { kind: 'tap', x: 180, y: 2020 };
/** the home key: the app's force-stop on the simulator, the launcher again */
const HOME: PhoneInput = { kind: 'key', key: 'home' };
/** an input whose frame has not come in this long is counted as missed */
const CHANGE_WAIT_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const r1 = (x: number) => Math.round(x * 10) / 10;

export async function benchScreen(opts: {
  temporal: BenchTemporal;
  root: string;
  seconds: number;
  inputs: number;
  say: (l: string) => void;
}): Promise<ScreenFigures> {
  const dir = path.join(opts.root, 'screen');
  fs.mkdirSync(dir, { recursive: true });
  const admin = await startAdminProcess({
    dataDir: path.join(dir, 'admin'),
    logs: path.join(dir, 'logs'),
    temporal: opts.temporal,
    workflowBundlePath: opts.temporal.workflowBundlePath,
    adminPassword: PASSWORD,
  });
  let sim: PhoneSim | undefined;
  let host: PhoneHost | undefined;
  try {
    const adminUrl = admin.readyMatch[1]!;
    const op = await operator(adminUrl, PASSWORD);
    const serials = Array.from({ length: PHONES }, (_, i) => `screen-${i + 1}`);
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: serials });
    host = await startHost(op, adminUrl, sim, dir, opts.temporal);
    const ids = await approveAll(op, host, serials, opts.say);
    const rig: Rig = { op, sim, admin, wsBase: adminUrl.replace(/^http/, 'ws'), ids, serials };
    return await measure(rig, opts);
  } finally {
    await host?.stop();
    await sim?.close();
    await stopChild(admin);
  }
}

interface Rig {
  op: OperatorClient;
  sim: PhoneSim;
  admin: RunningChild;
  wsBase: string;
  /** device id by serial */
  ids: Map<string, string>;
  serials: string[];
}

async function measure(
  rig: Rig,
  opts: { seconds: number; inputs: number; say: (l: string) => void },
): Promise<ScreenFigures> {
  const [first, ...others] = rig.serials as [string, ...string[]];
  const minicap = await oneViewer(rig, first, opts.seconds, (v) => inputToFrame(rig, v, first, opts.inputs));
  opts.say(
    `screen: minicap ${minicap.figures.fps.toFixed(1)} fps, ${Math.round(minicap.figures.bytesPerS / 1024)} KiB/s`,
  );
  const inputs = minicap.extra;
  opts.say(
    `screen: input → changed frame p50 ${Math.round(percentile(inputs.inputToFrameMs, 50))} ms, p95 ${Math.round(percentile(inputs.inputToFrameMs, 95))} ms (${inputs.missed} of ${inputs.sent} missed)`,
  );
  // a phone of API 33: no minicap build, so its stream is screencap's (set before the stream starts)
  const noBuild: ScreenFigures['noBuild'] = [];
  for (const [k, sdk] of NO_BUILD_SDKS.entries()) {
    const serial = others[k]!;
    rig.sim.phone(serial).setFaults({ android_sdk: sdk });
    noBuild.push({ sdk, ...(await oneViewer(rig, serial, opts.seconds, async () => undefined)).figures });
    rig.sim.phone(serial).setFaults({});
    opts.say(`screen: API ${sdk} by ${String(noBuild.at(-1)!.meta.path)}, ${noBuild.at(-1)!.fps.toFixed(1)} fps`);
  }
  const fpsBy = (path: string) => {
    const f = noBuild.find((s) => s.meta.path === path);
    return f ? r1(f.fps) : null;
  };
  const eight = await eightViewers(rig, opts.seconds);
  opts.say(
    `screen: ${PHONES} viewers: admin CPU ${eight.adminCpuPct.toFixed(1)} % (idle ${eight.adminIdleCpuPct.toFixed(1)} %), RSS ${eight.rssBeforeMib.toFixed(0)} → ${eight.rssPeakMib.toFixed(0)} MiB, ${Math.round(eight.bytesPerSPerViewer / 1024)} KiB/s per viewer`,
  );
  const ms = (v: number[], p: number) => Math.round(percentile(v, p));
  return {
    seconds: opts.seconds,
    minicap: minicap.figures,
    noBuild,
    inputs,
    eight,
    json: {
      minicap_fps: r1(minicap.figures.fps),
      screencap_fps: fpsBy('screencap'),
      scrcpy_fps: fpsBy('scrcpy'),
      input_to_frame_p50_ms: ms(inputs.inputToFrameMs, 50),
      input_to_frame_p95_ms: ms(inputs.inputToFrameMs, 95),
      frame_age_p50_ms: ms(inputs.frameAgeMs, 50),
      frame_age_p95_ms: ms(inputs.frameAgeMs, 95),
      eight_viewers_admin_rss_mib: Math.round(eight.rssPeakMib - eight.rssBeforeMib),
      eight_viewers_admin_cpu_pct: r1(eight.adminCpuPct),
      bytes_per_s_per_viewer: Math.round(eight.bytesPerSPerViewer),
    },
  };
}

/** The phone host as `npm run phone-host` runs it, its device workers in the bench's namespace. */
async function startHost(
  op: OperatorClient,
  adminUrl: string,
  sim: PhoneSim,
  dir: string,
  temporal: BenchTemporal,
): Promise<PhoneHost> {
  const issued = await op.post('/api/hosts', { display_name: '测速主机' });
  if (issued.status !== 201) throw new Error(`host credential: ${issued.status} ${JSON.stringify(issued.body)}`);
  const { host_id, token } = issued.body as { host_id: string; token: string };
  const host = new PhoneHost({
    adminUrl,
    hostId: host_id,
    token,
    adb: { host: '127.0.0.1', port: sim.adbPort },
    dataDir: path.join(dir, 'phone-host'),
    log: testLogger('phone-host'),
    metrics: new HostMetrics(),
    metricsTarget: null,
    // phone-host/main.ts's defaults: the admin hears from the host as often as in production
    syncMs: 5_000,
    healthMs: 60_000,
    workerEnv: {
      CMAUTOBUY_TEMPORAL_ADDRESS: temporal.address,
      CMAUTOBUY_TEMPORAL_NAMESPACE: temporal.namespace,
      CMAUTOBUY_LOG_LEVEL: 'warn',
      CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: process.env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS,
    },
  });
  await host.start();
  return host;
}

async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 180_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/**
 * Each phone approved as an operator approves it, then its first frame; the clock starts once
 * every device worker is up, so none of their start-up shares the cores with a measurement.
 */
async function approveAll(
  op: OperatorClient,
  host: PhoneHost,
  serials: string[],
  say: (l: string) => void,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const devices = () => op.get('/api/devices').then((r) => r.body as DeviceView[]);
  for (const serial of serials) {
    const pending = await until(devices, (ds) => ds.some((d) => d.serial === serial && d.state === 'pending'), serial);
    const deviceId = pending.find((d) => d.serial === serial)!.device_id;
    const approved = await op.post(`/api/devices/${deviceId}/approve`);
    if (approved.status !== 200) throw new Error(`approve ${serial}: ${approved.status}`);
    ids.set(serial, deviceId);
  }
  for (const id of ids.values())
    await until(
      () => op.get(`/api/devices/${id}/screen`),
      (r) => r.status === 200,
      `a first frame of ${id}`,
    );
  await until(
    async () => host.snapshot(),
    (s) => s.filter((p) => p.worker_pid !== null).length === serials.length,
    'every device worker',
  );
  say(`screen: ${serials.length} phones approved, their device workers up`);
  return ids;
}

/** One viewer of one phone: its frames counted over `seconds`, then `more` with the stream still open. */
async function oneViewer<T>(
  rig: Rig,
  serial: string,
  seconds: number,
  more: (v: Viewer) => Promise<T>,
): Promise<{ figures: StreamFigures; extra: T }> {
  const { viewer, firstFrameMs } = await Viewer.open(streamUrl(rig, serial), rig.op);
  try {
    const w = await viewer.window(seconds);
    const figures = { meta: viewer.meta ?? {}, firstFrameMs, fps: w.frames / w.s, bytesPerS: w.bytes / w.s };
    return { figures, extra: await more(viewer) };
  } finally {
    await viewer.close();
  }
}

const streamUrl = (rig: Rig, serial: string) => `${rig.wsBase}/api/devices/${rig.ids.get(serial)}/screen/stream`;

/** The phone held; the icon's tap and the home key by turns, each timed to the frame that shows it. */
async function inputToFrame(rig: Rig, viewer: Viewer, serial: string, count: number): Promise<ScreenFigures['inputs']> {
  const deviceId = rig.ids.get(serial)!;
  const held = await rig.op.post(`/api/devices/${deviceId}/hold`);
  if (held.status !== 200) throw new Error(`hold: ${held.status} ${JSON.stringify(held.body)}`);
  const send = async (input: PhoneInput) => {
    const res = await rig.op.post(`/api/devices/${deviceId}/input`, input);
    if (res.status !== 200) throw new Error(`input: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const out: ScreenFigures['inputs'] = { sent: 0, missed: 0, inputToFrameMs: [], frameAgeMs: [] };
  try {
    // from the launcher, whatever the phone showed
    await send(HOME);
    await sleep(500);
    for (let i = 0; i < count; i++) {
      const input = i % 2 === 0 ? OPEN_APP : HOME;
      const change = viewer.nextChange(CHANGE_WAIT_MS);
      const sent = performance.now();
      await send(input);
      out.sent++;
      const arrived = await change;
      if (!arrived) out.missed++;
      else out.inputToFrameMs.push(arrived.perf - sent);
      if (input.kind === 'tap') {
        const tap = rig.sim.phone(serial).taps.at(-1);
        if (tap?.target?.text !== '拼多多') throw new Error(`the tap hit ${JSON.stringify(tap?.target ?? null)}`);
        if (arrived) out.frameAgeMs.push(arrived.wall - Date.parse(tap.at));
      }
      // the next input starts from a still screen
      await sleep(300);
    }
  } finally {
    await rig.op.del(`/api/devices/${deviceId}/hold`);
  }
  return out;
}

/** Every phone watched at once, one viewer each; the admin's CPU and RSS against the same span without. */
async function eightViewers(rig: Rig, seconds: number): Promise<ScreenFigures['eight']> {
  const pid = rig.admin.process.pid!;
  const idle0 = { cpu: cpuMs(pid), at: performance.now() };
  await sleep(seconds * 1000);
  const adminIdleCpuPct = ((cpuMs(pid) - idle0.cpu) / (performance.now() - idle0.at)) * 100;
  const rssBeforeMib = rssMib(pid);
  let rssPeakMib = rssBeforeMib;
  const sampler = setInterval(() => (rssPeakMib = Math.max(rssPeakMib, rssMib(pid))), 200);
  const viewers: Viewer[] = [];
  try {
    const opened = await Promise.all(rig.serials.map((s) => Viewer.open(streamUrl(rig, s), rig.op)));
    viewers.push(...opened.map((o) => o.viewer));
    const cpu0 = { cpu: cpuMs(pid), at: performance.now() };
    const windows = await Promise.all(viewers.map((v) => v.window(seconds)));
    const adminCpuPct = ((cpuMs(pid) - cpu0.cpu) / (performance.now() - cpu0.at)) * 100;
    rssPeakMib = Math.max(rssPeakMib, rssMib(pid));
    const bytes = windows.reduce((n, w) => n + w.bytes / w.s, 0);
    return {
      phones: viewers.length,
      fps: windows.map((w) => w.frames / w.s),
      bytesPerSPerViewer: bytes / viewers.length,
      adminCpuPct,
      adminIdleCpuPct,
      rssBeforeMib,
      rssPeakMib,
    };
  } finally {
    clearInterval(sampler);
    await Promise.all(viewers.map((v) => v.close()));
  }
}
