import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type NativeConnectionOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createClaimActivities, createDeviceActivities, type DeviceContext } from '../activities/device';
import { createPurchaseActivities } from '../activities/device/purchase';
import { DEVICES_TASK_QUEUE, deviceTaskQueue } from '../domain/task-queues';
import { AdbDevice, type AdbTimeouts } from './adb/adb-device';
import { AdminClient, type DeviceRegistration } from './admin-client';
import { ArtifactStore } from './artifacts';
import { DeviceLedger } from './ledger/ledger';
import { SubmissionLedger } from './ledger/submissions';
import { httpEvidenceUploader } from './pdd/purchase/evidence';
import { DEFAULT_TIMING, type SessionTiming } from './pdd/session';

export interface DeviceWorkerOptions {
  /** the admin-issued device id (also the queue `device/<id>` and the data folder) */
  deviceId: string;
  serial: string;
  adb: { host: string; port: number; timeouts?: Partial<AdbTimeouts> };
  /** the data dir root; this worker uses <dataDir>/device/<deviceId>/ */
  dataDir: string;
  temporal: { address: string; namespace: string; tls?: NativeConnectionOptions['tls'] };
  /** registration with the admin; without it the worker runs unregistered */
  admin?: { url: string; token: string };
  log: Logger;
  timing?: Partial<SessionTiming>;
  /** failure artifacts older than this are removed (at start and daily); default 14 */
  artifactRetentionDays?: number;
  /** how often an open claim's workflow is checked for being closed; default 10 s */
  claimCheckIntervalMs?: number;
}

export interface DeviceWorkerHandle {
  deviceId: string;
  taskQueue: string;
  /** resolves when the phone's queue is being polled */
  ready: Promise<void>;
  stop(): Promise<void>;
}

const CAPABILITIES = ['collect', 'device-check', 'purchase'];
const PDD_PACKAGE = 'com.xunmeng.pinduoduo';

/**
 * One device worker per phone (ARCHITECTURE §2–§3): a Worker on `device/<id>` (one activity at
 * a time) and, only while the phone has no open claim, a second Worker on `devices` that can
 * take a claim. After a claim that second Worker is shut down, so a busy phone never takes
 * another; after the release (or the cleanup of a claim whose workflow closed) it is created
 * again, so an idle phone picks up waiting work within seconds.
 */
export async function startDeviceWorker(opts: DeviceWorkerOptions): Promise<DeviceWorkerHandle> {
  const log = opts.log.child({ deviceId: opts.deviceId, serial: opts.serial });
  if (!/^[A-Za-z0-9._-]+$/.test(opts.deviceId)) throw new Error(`device id ${JSON.stringify(opts.deviceId)} is not a safe folder name`);
  const root = path.join(path.resolve(opts.dataDir), 'device', opts.deviceId);
  const ledger = new DeviceLedger(path.join(root, 'ledger.db'), opts.deviceId);
  // the purchase submissions live in the same file, in their own table and connection
  const submissions = new SubmissionLedger(path.join(root, 'ledger.db'));
  const artifacts = new ArtifactStore(path.join(root, 'artifacts'), opts.artifactRetentionDays ?? 14);
  const cleanArtifacts = () => {
    const removed = artifacts.cleanup();
    if (removed > 0) log.info({ removed, retentionDays: artifacts.retentionDays }, 'old failure artifacts removed');
  };
  cleanArtifacts();
  const daily = setInterval(cleanArtifacts, 86_400_000).unref();

  const taskQueue = deviceTaskQueue(opts.deviceId);
  const adbTarget = { host: opts.adb.host, port: opts.adb.port, serial: opts.serial };
  const adb = new AdbDevice(adbTarget, opts.adb.timeouts);
  const adminClient = opts.admin
    ? new AdminClient({
        adminUrl: opts.admin.url,
        deviceId: opts.deviceId,
        token: opts.admin.token,
        log,
        // the admin's 设置 decide the retention unless this host was given one explicitly
        onSettings: (s) => {
          if (opts.artifactRetentionDays !== undefined || s.artifact_retention_days === artifacts.retentionDays) return;
          artifacts.retentionDays = s.artifact_retention_days;
          log.info({ retentionDays: s.artifact_retention_days }, 'artifact retention from the admin');
          cleanArtifacts();
        },
      })
    : null;
  let stopping = false;
  let connection: NativeConnection | undefined;
  let claimWorker: Worker | undefined;
  let claimRun: Promise<void> | undefined;
  let deviceWorker: Worker | undefined;

  const register = () => {
    if (!adminClient) return;
    void describePhone(new AdbDevice(adbTarget, { ...opts.adb.timeouts, reconnectMs: 2_000 })).then((reg) => adminClient.register(reg));
  };

  // start/stop of the `devices` poller, one transition at a time
  let transitions: Promise<void> = Promise.resolve();
  const reconcile = () => {
    transitions = transitions.then(async () => {
      const wantPolling = !stopping && !!connection && !!deviceWorker && ledger.openClaim() === null;
      if (wantPolling && !claimWorker) {
        const w = await Worker.create({
          connection: connection as NativeConnection,
          namespace: opts.temporal.namespace,
          taskQueue: DEVICES_TASK_QUEUE,
          activities: createClaimActivities(ctx),
          maxConcurrentActivityTaskExecutions: 1,
          shutdownGraceTime: '10 seconds',
        });
        claimWorker = w;
        claimRun = w.run().catch((err: Error) => log.warn({ err: err.message }, 'claim poller stopped')).finally(() => {
          if (claimWorker === w) claimWorker = undefined;
        });
        log.info('idle: polling for claims');
      } else if (!wantPolling && claimWorker) {
        const w = claimWorker;
        if (w.getState() === 'RUNNING') w.shutdown();
        await claimRun;
        if (claimWorker === w) claimWorker = undefined;
        log.info('busy or stopping: not polling for claims');
      }
    }).catch((err: Error) => log.warn({ err: err.message }, 'claim poller transition failed'));
    return transitions;
  };

  const ctx: DeviceContext = {
    deviceId: opts.deviceId,
    taskQueue,
    adb,
    ledger,
    artifacts,
    timing: { ...DEFAULT_TIMING, ...opts.timing },
    log,
    onClaimed: () => {
      void reconcile();
      register();
    },
    onReleased: () => void reconcile(),
  };

  let temporalClient: Client | undefined;
  /** Closes the open claim when Temporal says its workflow is no longer running. */
  const checkOpenClaim = async () => {
    const open = ledger.openClaim();
    if (!open) return;
    try {
      if (!temporalClient) {
        const c = await Connection.connect({ address: opts.temporal.address, tls: opts.temporal.tls, connectTimeout: 5_000 });
        temporalClient = new Client({ connection: c, namespace: opts.temporal.namespace });
      }
      let closed: string | null = null;
      try {
        // bounded, so a stop never waits long on a check against a Temporal that is away
        const client = temporalClient;
        const desc = await client.connection.withDeadline(Date.now() + 5_000, () => client.workflow.getHandle(open.workflow_id, open.run_id).describe());
        if (desc.status.name !== 'RUNNING') closed = desc.status.name;
      } catch (err) {
        if ((err as Error).name === 'WorkflowNotFoundError') closed = 'NOT_FOUND';
        else throw err;
      }
      if (closed && ledger.closeOrphan(open.claim_id, `workflow ${closed}`)) {
        log.warn({ workflowId: open.workflow_id, status: closed }, 'closed the claim of a workflow that is no longer running');
        await reconcile();
      }
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'could not check the open claim against Temporal');
    }
  };
  // One check at a time: while Temporal is down a check can take longer than the interval, and
  // checks piling up would still be retrying when the worker closes the connection under them.
  let checking: Promise<void> | null = null;
  const monitor = setInterval(() => {
    if (checking || stopping) return;
    checking = checkOpenClaim()
      .then(() => reconcile())
      .finally(() => (checking = null));
  }, opts.claimCheckIntervalMs ?? 10_000);

  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const loop = (async () => {
    while (!stopping) {
      try {
        connection = await NativeConnection.connect({ address: opts.temporal.address, tls: opts.temporal.tls });
        deviceWorker = await Worker.create({
          connection,
          namespace: opts.temporal.namespace,
          taskQueue,
          activities: {
            ...createDeviceActivities(ctx),
            ...createPurchaseActivities(ctx, { submissions, evidence: opts.admin ? httpEvidenceUploader({ adminUrl: opts.admin.url, deviceId: opts.deviceId, token: opts.admin.token, log }) : null }),
          },
          maxConcurrentActivityTaskExecutions: 1,
          shutdownGraceTime: '10 seconds',
        });
        if (stopping) break;
        const running = deviceWorker.run();
        log.info({ taskQueue }, 'device worker polling');
        await checkOpenClaim();
        await reconcile();
        markReady();
        await running;
      } catch (err) {
        if (!stopping) log.warn({ err: (err as Error).message }, 'device worker stopped; reconnecting in 2 s');
      } finally {
        const dw = deviceWorker;
        deviceWorker = undefined;
        await reconcile();
        if (dw && dw.getState() === 'RUNNING') dw.shutdown();
        await connection?.close().catch(() => undefined);
        connection = undefined;
      }
      if (!stopping) await new Promise((r) => setTimeout(r, 2_000));
    }
  })();

  register();

  return {
    deviceId: opts.deviceId,
    taskQueue,
    ready,
    async stop() {
      stopping = true;
      clearInterval(monitor);
      clearInterval(daily);
      await checking;
      adminClient?.stop();
      await reconcile();
      if (deviceWorker && deviceWorker.getState() === 'RUNNING') deviceWorker.shutdown();
      await loop;
      await temporalClient?.connection.close().catch(() => undefined);
      ledger.close();
      submissions.close();
    },
  };
}

/** What the admin's 设备 page shows; a phone that is offline right now still registers. */
async function describePhone(adb: AdbDevice): Promise<DeviceRegistration> {
  let model = 'unknown';
  let appVersion = 'not installed';
  try {
    model = (await adb.getprop('ro.product.model')) || 'unknown';
    appVersion = (await adb.versionName(PDD_PACKAGE)) ?? 'not installed';
  } catch {
    // offline at the moment: register what we know, the next claim refreshes it
  }
  return { serial: adb.serial, model, app_version: appVersion, capabilities: CAPABILITIES };
}
