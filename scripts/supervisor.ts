import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from '../admin/config/env';
import { ConfigError } from '../platform/config';
import { dataPaths } from '../platform/data-dir';
import { ensurePayloadKeyFile } from '../temporal/codec/keys';
import { temporalTarget } from '../temporal/connection';
import { tightenTree, usePrivateUmask } from '../platform/private-files';
import { startDevServer, waitForTemporal, type DevServer } from '../temporal/dev-server';
import { PROJECT_ROOT } from '../temporal/binaries';
import { SupervisedChild, type ChildSpec, type RestartEvent } from './supervise/children';
import { MetricsTargets } from './supervise/metrics-targets';
import { ensureUiBuilt } from './supervise/ui-build';
import { SIM_PHONES } from './supervise/sim-devices';
import { approveSimPhones, simHostCredential } from './supervise/sim-host';
import { sybAccountEnv } from './supervise/syb-sim';

/**
 * `npm start`: the embedded system on one machine — Temporal dev server (SQLite under the
 * data dir), admin (API + UI), the admin worker, the phone simulator with two phones, the 顺运宝
 * simulator, one phone host running a device worker per phone. Prints `READY admin=… temporal-ui=…` when all answer; SIGINT/SIGTERM stop
 * every child, newest first, and nothing is left behind. A child that dies on its own is
 * restarted (with a growing delay) and the restart logged; the rest keeps running.
 */
const say = (line: string) => console.log(`[start] ${line}`);

async function main(): Promise<void> {
  // Every file of the system is for this user only; children (Temporal too) inherit the umask.
  usePrivateUmask();
  const env = parseEnv();
  // Read once and kept out of every child's environment but the admin's (the Temporal CLI is
  // spawned with the supervisor's own environment).
  delete process.env.CMAUTOBUY_ADMIN_PASSWORD;
  delete process.env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS;
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  tightenTree(paths.root);
  const target = temporalTarget(env);
  // The payload keys go to the admin and the device workers only. The embedded default makes
  // its key on first start (data/keys/, docs/security.md); against a cluster they must be given.
  const payloadKeys =
    env.CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS ?? (target.embedded ? ensurePayloadKeyFile(paths.root) : undefined);
  const keyEnv = payloadKeys ? { CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: payloadKeys } : {};
  const adminBase = `${env.CMAUTOBUY_ADMIN_TLS_CERT ? 'https' : 'http'}://${env.CMAUTOBUY_ADMIN_HOST}:${env.CMAUTOBUY_ADMIN_PORT}`;
  const children: SupervisedChild[] = [];
  const restartLog = path.join(paths.logs, 'supervisor.log');
  const onRestart = (event: RestartEvent) => {
    say(`${event.child} exited (${event.exit}); restart ${event.restart} in ${event.delay_ms} ms`);
    fs.mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
    fs.appendFileSync(
      restartLog,
      `${JSON.stringify({ time: new Date().toISOString(), level: 'warn', msg: 'child restarted', ...event })}\n`,
      { mode: 0o600 },
    );
  };
  const startChild = (spec: ChildSpec) => SupervisedChild.start(spec, { onRestart });
  let temporal: DevServer | undefined;
  let stopping = false;

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping …');
    for (const child of children) child.standDown();
    // the phone host drains its device workers (their claims' heartbeat timeout) before it exits
    for (const child of [...children].reverse()) await child.stop(child.name === 'phone-host' ? 40_000 : undefined);
    await temporal?.stop();
    say('stopped');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));

  try {
    ensureUiBuilt(PROJECT_ROOT, say);

    if (target.embedded) {
      say(`starting Temporal dev server on ${target.address}`);
      temporal = await startDevServer({
        dbFile: paths.temporalDb,
        namespace: target.namespace,
        port: env.CMAUTOBUY_TEMPORAL_PORT,
        uiPort: env.CMAUTOBUY_TEMPORAL_UI_PORT,
        logFile: path.join(paths.logs, 'temporal.log'),
        retentionDays: env.CMAUTOBUY_TEMPORAL_RETENTION_DAYS,
        // the Web UI decodes every payload through the admin (an operator's session, docs/operations.md)
        uiCodecEndpoint: `${adminBase}/api/codec`,
        say,
      });
    } else {
      say(`using the Temporal server at ${target.address}`);
      await waitForTemporal(target.address, target.namespace, 30_000);
    }
    if (stopping) return;

    const node = process.execPath;
    const ts = (entry: string, args: string[] = []) => ['--import', 'tsx', path.join(PROJECT_ROOT, entry), ...args];
    // The SYB password goes to the admin only: every other child runs without it.
    const childEnv = {
      CMAUTOBUY_TEMPORAL_ADDRESS: target.address,
      CMAUTOBUY_DATA_DIR: paths.root,
      CMAUTOBUY_LOG_LEVEL: env.CMAUTOBUY_LOG_LEVEL,
      CMAUTOBUY_SYB_PASSWORD: undefined,
    };

    const sim = await startChild({
      name: 'sim',
      command: node,
      args: ts('sim/phone/main.ts'),
      env: childEnv,
      readyLine: /SIM READY adb=(\d+) control=(\d+)/,
      logFile: path.join(paths.logs, 'sim.out'),
    });
    children.push(sim);
    if (stopping) return;

    const sybSim = await startChild({
      name: 'syb-sim',
      command: node,
      args: ts('sim/syb/main.ts'),
      env: { ...childEnv, CMAUTOBUY_SYB_SIM_PORT: String(env.CMAUTOBUY_SYB_SIM_PORT) },
      readyLine: /SYB SIM READY url=(\S+)/,
      logFile: path.join(paths.logs, 'syb-sim.out'),
    });
    children.push(sybSim);
    if (stopping) return;

    const metrics = new MetricsTargets();
    const admin = await startChild({
      name: 'admin',
      command: node,
      // its worker runs as the next child, off the event loop that answers operators
      args: ts('admin/main.ts', ['--no-worker']),
      env: {
        ...childEnv,
        ...keyEnv,
        ...(env.CMAUTOBUY_ADMIN_PASSWORD ? { CMAUTOBUY_ADMIN_PASSWORD: env.CMAUTOBUY_ADMIN_PASSWORD } : {}),
        ...(await sybAccountEnv(env, sybSim.readyMatch[1]!)),
        // the admin sees this server as an existing one (CMAUTOBUY_TEMPORAL_ADDRESS), so it is told where its UI is
        ...(temporal?.uiUrl ? { CMAUTOBUY_TEMPORAL_UI_URL: temporal.uiUrl } : {}),
      },
      readyLine: /ADMIN READY (\S+)/,
      logFile: path.join(paths.logs, 'admin.out'),
      terminalOnly: /^Initial password for operator/,
    });
    children.push(admin);
    const adminUrl = admin.readyMatch[1]!;
    metrics.add('admin', 'admin', new URL(adminUrl).host);
    if (stopping) return;

    // The admin's Temporal worker, off the event loop that answers operators
    // (admin/temporal/worker-main.ts); started after the admin, which has migrated the DB.
    const adminWorker = await startChild({
      name: 'admin-worker',
      command: node,
      args: ts('admin/temporal/worker-main.ts', [
        '--metrics-port',
        String(await metrics.port('admin-worker', 'admin-worker')),
      ]),
      env: {
        ...childEnv,
        ...keyEnv,
        // its SYB sync activity logs in to 顺运宝 like the admin's 立即同步
        ...(await sybAccountEnv(env, sybSim.readyMatch[1]!)),
        CMAUTOBUY_TEMPORAL_METRICS_PORT: String(await metrics.port('temporal-sdk', 'admin-worker')),
      },
      readyLine: /ADMIN WORKER READY/,
      logFile: path.join(paths.logs, 'admin-worker.out'),
    });
    children.push(adminWorker);
    if (stopping) return;

    // One phone host for the simulator's phones (docs/phone-hosts.md "Under npm start"): the
    // phones there now are approved by the system, a phone added later waits on 设备.
    const simHost = await simHostCredential(paths.adminDb);
    const phoneHost = await startChild({
      name: 'phone-host',
      command: node,
      args: ts('phone-host/main.ts', [
        '--admin-url',
        adminUrl,
        '--adb-host',
        '127.0.0.1',
        '--adb-port',
        sim.readyMatch[1]!,
        '--metrics-port',
        String(await metrics.port('phone-host', 'sim-host')),
      ]),
      env: {
        ...childEnv,
        ...keyEnv,
        CMAUTOBUY_HOST_TOKEN: simHost.env,
        CMAUTOBUY_HOST_SYNC_MS: process.env.CMAUTOBUY_HOST_SYNC_MS ?? '2000',
      },
      readyLine: /PHONE HOST READY/,
      logFile: path.join(paths.logs, 'phone-host.out'),
    });
    children.push(phoneHost);
    if (stopping) return;
    await approveSimPhones(paths.adminDb, simHost.hostId, SIM_PHONES, {
      timeoutMs: 60_000,
      stopped: () => stopping,
    });
    if (stopping) return;

    await waitForTemporal(target.address, target.namespace, 30_000);
    const temporalUi = temporal?.uiUrl
      ? `${temporal.uiUrl}/namespaces/${target.namespace}/workflows`
      : (env.CMAUTOBUY_TEMPORAL_UI_URL ?? 'unknown');
    console.log(`READY admin=${adminUrl} temporal-ui=${temporalUi}`);
    for (const line of metrics.lines()) say(`metrics ${line}`);
    metrics.write(path.join(paths.root, 'metrics-targets.json'));
    say(`logs: ${paths.logs}; Ctrl-C stops everything`);

    // Children that die on their own are restarted (SupervisedChild); the supervisor now only
    // waits for SIGINT/SIGTERM.
    await new Promise<never>(() => undefined);
  } catch (err) {
    console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
    await stopAll(1);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
