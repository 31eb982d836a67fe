import { holdGate } from '../device-worker/runtime/hold-gate';
import { readForResume } from '../device-worker/runtime/resume-check';
import { fetchTaughtOverlays, sendResumeVerdict, sendScreenNodes } from '../device-worker/admin-client';
import { loadProfiles } from '../device-worker/pdd/profile';
import path from 'node:path';
import { createClaimActivities, createDeviceActivities, type DeviceContext } from '../activities/device';
import { createPurchaseActivities } from '../activities/device/purchase';
import { deviceTaskQueue } from '../domain/task-queues';
import { dataPaths } from '../platform/data-dir';
import type { Logger } from '../platform/logger';
import type { TemporalConnectionSettings } from '../temporal/connection';
import { AdbDevice, type AdbTarget, type AdbTimeouts, type HierarchySource } from '../device-worker/adb/adb-device';
import { DeviceLedger } from '../device-worker/ledger/ledger';
import { SubmissionLedger } from '../device-worker/ledger/submissions';
import { httpEvidenceUploader } from '../device-worker/pdd/purchase/evidence';
import { DEFAULT_TIMING, type SessionTiming } from '../device-worker/pdd/session';
import { OrphanClaimChecks } from '../device-worker/runtime/claim-checks';
import { ClaimPoller } from '../device-worker/runtime/claim-poller';
import { DeviceMetrics } from '../device-worker/runtime/metrics';
import { deviceWorkerIdentity } from '../device-worker/runtime/identity';
import { runDeviceQueue } from '../device-worker/runtime/reconnect';
import { createRegistration, type Registration } from '../device-worker/runtime/registration';
import { keepArtifacts, type ArtifactRetention } from '../device-worker/runtime/artifact-retention';
import { DeviceStatusWatch } from '../device-worker/runtime/device-status';
import { HoldRecorder, httpHoldFrameUploader } from '../device-worker/runtime/hold-recorder';
import { followQuietly, PhoneAnimations, SAVED_SCALES_FILE } from '../device-worker/runtime/animations';
import { PhoneAgent } from '../device-worker/agent/phone-agent';
import type { PhoneAgentReport } from '../domain/phone-agent';

export interface DeviceWorkerOptions {
  /** the admin-issued device id (also the queue `device/<id>` and the data folder) */
  deviceId: string;
  serial: string;
  adb: { host: string; port: number; timeouts?: Partial<AdbTimeouts> };
  /** the data dir root; this worker uses <dataDir>/device/<deviceId>/ */
  dataDir: string;
  temporal: TemporalConnectionSettings;
  /** registration with the admin; without it the worker runs unregistered */
  admin?: { url: string; token: string };
  log: Logger;
  timing?: Partial<SessionTiming>;
  /** failure artifacts older than this are removed (at start and daily); default 14 */
  artifactRetentionDays?: number;
  /** how often an open claim's workflow is checked for being closed; default 10 s */
  claimCheckIntervalMs?: number;
  /** how often the phone's ADB state is checked and reported, and the admin asked whether it may claim; default 5 s */
  statusIntervalMs?: number;
  /** serve this worker's metrics at `http://host:port/metrics` (port 0: a free one); unset = not served */
  metrics?: { host: string; port: number };
  /**
   * Read the screen through the on-device agent (device-worker/agent/) while it runs; off: every
   * read is a `uiautomator dump`. The process entry turns it on unless told otherwise.
   */
  agent?: boolean;
}

export interface DeviceWorkerHandle {
  deviceId: string;
  taskQueue: string;
  /** resolves when the phone's queue is being polled */
  ready: Promise<void>;
  /** the on-device agent as the device page shows it */
  agent(): PhoneAgentReport;
  /** where this worker's metrics are served, when asked for */
  metricsUrl: string | undefined;
  stop(): Promise<void>;
}

/** The read-only orders lists of every profiled PDD version: opened by a reconcile even on a held phone. */
const ORDER_LIST_URLS: ReadonlySet<string> = new Set(loadProfiles().map((p) => p.purchase.pendingOrdersUrl));

/** The phone as the activities drive it: read through the agent while it runs, every act asked of the hold gate. */
function automationsPhone(adbTarget: AdbTarget, opts: DeviceWorkerOptions, agent: HierarchySource | null): AdbDevice {
  return new AdbDevice(adbTarget, opts.adb.timeouts)
    .readHierarchyFrom(agent)
    .gateActs(holdGate({ admin: opts.admin, deviceId: opts.deviceId, readOnlyUrls: ORDER_LIST_URLS }));
}

/** Where this worker reads the popups operators taught (none without an admin). */
function taughtFrom(opts: DeviceWorkerOptions, log: Logger): DeviceContext['taughtOverlays'] {
  const admin = opts.admin;
  if (!admin) return undefined;
  return (appVersion) =>
    fetchTaughtOverlays({ adminUrl: admin.url, deviceId: opts.deviceId, token: admin.token }, appVersion, log);
}

/**
 * One device worker per phone (docs/architecture.md §3.1): the phone's own
 * queue `device/<id>` (device-worker/runtime/reconnect.ts), the `devices` queue only while idle
 * (runtime/claim-poller.ts), orphan-claim checks against Temporal (runtime/claim-checks.ts) and
 * the report to the admin (runtime/registration.ts), composed around one ledger and one phone,
 * with the activities of activities/device registered on its queues.
 */
export async function startDeviceWorker(opts: DeviceWorkerOptions): Promise<DeviceWorkerHandle> {
  const log = opts.log.child({ deviceId: opts.deviceId, serial: opts.serial });
  // First, so a metrics port that is taken stops the start before anything is opened.
  const { metrics, metricsListener } = await serveMetrics(opts, log);
  const paths = dataPaths(opts.dataDir).device(opts.deviceId);
  const ledger = new DeviceLedger(paths.ledgerDb, opts.deviceId);
  // the purchase submissions live in the same file, in their own table and connection
  const submissions = new SubmissionLedger(paths.ledgerDb);
  const retention = keepArtifacts(paths.artifacts, opts.artifactRetentionDays, log);
  const adbTarget = { host: opts.adb.host, port: opts.adb.port, serial: opts.serial };
  const phone = phoneUpkeep(adbTarget, opts, paths.root, log, ledger);
  const adb = automationsPhone(adbTarget, opts, phone.agent);
  const { registration, status, recorder } = watchAdmin(opts, adbTarget, log, retention, () => poller, phone, adb);
  const ctx: DeviceContext = {
    deviceId: opts.deviceId,
    taskQueue: deviceTaskQueue(opts.deviceId),
    adb,
    ledger,
    artifacts: retention.artifacts,
    timing: { ...DEFAULT_TIMING, ...opts.timing },
    log,
    onClaimed: () => {
      void poller.pollIfIdle();
      registration.register();
    },
    onReleased: () => void poller.pollIfIdle(),
    claimRefusal: () => status.check({ beforeClaim: true }),
    taughtOverlays: taughtFrom(opts, log),
  };
  const identity = deviceWorkerIdentity(opts.deviceId);
  const poller = new ClaimPoller({
    namespace: opts.temporal.namespace,
    identity,
    ledger,
    claimActivities: metrics.instrument(createClaimActivities(ctx)),
    log,
    mayClaim: () => status.lastRefusal === null && !phone.agentStarting(),
  });
  status.start(opts.statusIntervalMs ?? 5_000);
  const checks = new OrphanClaimChecks({
    temporal: opts.temporal,
    identity,
    ledger,
    log,
    afterCheck: () => poller.pollIfIdle(),
  });
  checks.start(opts.claimCheckIntervalMs ?? 10_000);
  const queue = runDeviceQueue({
    temporal: opts.temporal,
    taskQueue: ctx.taskQueue,
    identity,
    activities: metrics.instrument(phoneActivities(ctx, opts, submissions, log)),
    log,
    onConnected: async (connection) => {
      await checks.closeOrphanClaim();
      await poller.attach(connection);
    },
    onDisconnecting: () => poller.detach(),
  });
  registration.register();

  return {
    deviceId: opts.deviceId,
    taskQueue: ctx.taskQueue,
    ready: queue.ready,
    agent: phone.report,
    metricsUrl: metricsListener?.url,
    async stop() {
      // no claim may be taken from here on, even by a check that is finishing right now
      const pollerStopped = poller.stop();
      retention.stop();
      await status.stop().then(() => recorder?.stop());
      await checks.stop();
      registration.stop();
      await pollerStopped;
      await queue.stop();
      // after the queue: a purchase that finishes during the stop still runs without animations
      await phone.stop();
      await checks.close();
      ledger.close();
      submissions.close();
      await metricsListener?.close();
    },
  };
}

async function serveMetrics(opts: DeviceWorkerOptions, log: Logger) {
  const metrics = new DeviceMetrics();
  const metricsListener = opts.metrics ? await metrics.serve({ ...opts.metrics, log }) : undefined;
  if (metricsListener) log.info({ url: metricsListener.url }, 'device worker metrics served');
  return { metrics, metricsListener };
}

const AGENT_OFF: PhoneAgentReport = { state: 'unavailable', reason: 'turned off for this worker (--agent off)' };

/**
 * What the worker keeps up on the phone while it runs: its animations off and its on-device agent
 * running (when asked for; started here, kept by every status check).
 *
 * The animations are set by the device worker, not by the phone host: the worker's start and stop
 * bracket every claim and tap on the phone, it runs with or without a host, and a host cannot
 * stop it more cleanly than its own stop (a SIGKILL skips both; the saved file covers that).
 */
function phoneUpkeep(
  adbTarget: AdbTarget,
  opts: DeviceWorkerOptions,
  deviceDir: string,
  log: Logger,
  ledger: DeviceLedger,
) {
  // its own connection, one try: a phone gone from ADB must not hold up a status check or the stop
  const adb = new AdbDevice(adbTarget, { ...opts.adb.timeouts, shellMs: 5_000, reconnectMs: 0 });
  const animations = new PhoneAnimations({
    shell: (command) => adb.shell(command),
    file: path.join(deviceDir, SAVED_SCALES_FILE),
    log,
  });
  // one try: a phone gone from ADB is tried again at the next status check, and the stop is quick
  const agentAdb = new AdbDevice(adbTarget, { ...opts.adb.timeouts, reconnectMs: 0 });
  const agent = opts.agent ? new PhoneAgent({ adb: agentAdb, log }) : null;
  void agent?.keep();
  return {
    animations,
    /** every activity's ADB reads the screen through it while it runs, by dump otherwise */
    agent,
    report: (): PhoneAgentReport => agent?.report() ?? AGENT_OFF,
    /** its health at every status check; (re)started only while the phone holds no claim */
    keepAgent: () => void agent?.keep({ mayStart: ledger.openClaim() === null }),
    /** no claim is taken while it starts: neither it nor a dump can read the screen meanwhile */
    agentStarting: () => agent?.starting ?? false,
    async stop() {
      await animations.stop();
      await agent?.stop();
    },
  };
}

/** The activities of the phone's own queue: the device's and the purchase's, whose screenshots go to the admin. */
function phoneActivities(ctx: DeviceContext, opts: DeviceWorkerOptions, submissions: SubmissionLedger, log: Logger) {
  const evidence = opts.admin
    ? httpEvidenceUploader({ adminUrl: opts.admin.url, deviceId: opts.deviceId, token: opts.admin.token, log })
    : null;
  return { ...createDeviceActivities(ctx), ...createPurchaseActivities(ctx, { submissions, evidence }) };
}

/**
 * The recording of a held phone (runtime/hold-recorder.ts), read through the activities' own ADB
 * (the agent while it runs); without an admin nobody can hold the phone.
 */
function holdRecording(opts: DeviceWorkerOptions, phone: AdbDevice, log: Logger): HoldRecorder | null {
  const admin = opts.admin;
  if (!admin) return null;
  const to = { adminUrl: admin.url, deviceId: opts.deviceId, token: admin.token, log };
  const upload = httpHoldFrameUploader(to);
  return new HoldRecorder({ adb: phone, upload, sendNodes: (read) => sendScreenNodes(to, read), log });
}

/**
 * The admin's side of the phone: the report to 设备 (runtime/registration.ts), the status
 * watch that asks whether the phone may claim (runtime/device-status.ts) and the recording of the
 * hold its answers name. A revoked token stops the claims, a changed status lets an idle phone
 * poll at once; `claims` is read only when one of them calls, after the poller exists.
 */
function watchAdmin(
  opts: DeviceWorkerOptions,
  adbTarget: AdbTarget,
  log: Logger,
  retention: ArtifactRetention,
  claims: () => ClaimPoller,
  phone: { animations: PhoneAnimations; report: () => PhoneAgentReport; keepAgent: () => void },
  /** the phone as the activities read it (through the agent while it runs) */
  resumeReader: AdbDevice,
): { registration: Registration; status: DeviceStatusWatch; recorder: HoldRecorder | null } {
  const recorder = holdRecording(opts, resumeReader, log);
  const { animations } = phone;
  const registration = createRegistration({
    admin: opts.admin,
    deviceId: opts.deviceId,
    adb: adbTarget,
    adbTimeouts: opts.adb.timeouts,
    log,
    onSettings: (s) => retention.onSettings(s),
    // a revoked phone takes no new claim; a purchase it holds is refused by the admin
    onRevoked: () => void claims().stop(),
  });
  const status = new DeviceStatusWatch({
    adb: adbTarget,
    adbTimeouts: opts.adb.timeouts,
    admin: opts.admin,
    deviceId: opts.deviceId,
    log,
    onChange: () => void claims().pollIfIdle(),
    onRevoked: () => void claims().stop(),
    // animations off while automation holds the phone, back on when paused, 需处理 or revoked
    onChecked: followQuietly(animations, log),
    // the agent's state goes with every report; a dead one is started again after the report
    agent: phone.report,
    afterReport: phone.keepAgent,
    onResumeCheck: async () => {
      const admin = opts.admin;
      if (!admin) return;
      const verdict = await readForResume(resumeReader);
      log.info({ verdict }, 'read the phone for 处理完毕，继续');
      await sendResumeVerdict({ adminUrl: admin.url, deviceId: opts.deviceId, token: admin.token }, verdict);
    },
    onHold: (hold) => recorder?.follow(hold),
  });
  return { registration, status, recorder };
}
