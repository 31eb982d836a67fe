import path from 'node:path';
import { parseEnv } from '../admin/config/env';
import { ConfigError } from '../platform/config';
import { dataPaths } from '../platform/data-dir';
import { temporalTarget } from '../temporal/connection';
import { startDevServer, waitForTemporal, type DevServer } from '../temporal/dev-server';
import { PROJECT_ROOT } from '../temporal/binaries';
import { startChild, stopChild, type RunningChild } from './supervise/children';
import { ensureUiBuilt } from './supervise/ui-build';
import { SIM_PHONES, provisionSimDevices } from './supervise/sim-devices';

/**
 * `npm start`: the embedded system on one machine — Temporal dev server (SQLite under the
 * data dir), admin (API + UI + admin worker), the phone simulator with two phones, one device
 * worker per phone. Prints `READY admin=… temporal-ui=…` when all answer; SIGINT/SIGTERM stop
 * every child, newest first, and nothing is left behind.
 */
const say = (line: string) => console.log(`[start] ${line}`);

async function main(): Promise<void> {
  const env = parseEnv();
  const paths = dataPaths(env.CMAUTOBUY_DATA_DIR);
  const target = temporalTarget(env);
  const children: RunningChild[] = [];
  let temporal: DevServer | undefined;
  let stopping = false;

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping …');
    for (const child of [...children].reverse()) await stopChild(child);
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
        say,
      });
    } else {
      say(`using the Temporal server at ${target.address}`);
      await waitForTemporal(target.address, target.namespace, 30_000);
    }
    if (stopping) return;

    const node = process.execPath;
    const ts = (entry: string, args: string[] = []) => ['--import', 'tsx', path.join(PROJECT_ROOT, entry), ...args];
    const childEnv = { CMAUTOBUY_TEMPORAL_ADDRESS: target.address, CMAUTOBUY_DATA_DIR: paths.root, CMAUTOBUY_LOG_LEVEL: env.CMAUTOBUY_LOG_LEVEL };

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

    const admin = await startChild({
      name: 'admin',
      command: node,
      args: ts('admin/main.ts'),
      env: childEnv,
      readyLine: /ADMIN READY (\S+)/,
      logFile: path.join(paths.logs, 'admin.out'),
      terminalOnly: /^Initial password for operator/,
    });
    children.push(admin);
    const adminUrl = admin.readyMatch[1]!;
    if (stopping) return;

    for (const device of await provisionSimDevices(paths.adminDb, SIM_PHONES)) {
      const worker = await startChild({
        name: `device-${device.deviceId}`,
        command: node,
        args: ts('device-worker/main.ts', ['--device-id', device.deviceId, '--serial', device.serial, '--adb-host', '127.0.0.1', '--adb-port', sim.readyMatch[1]!, '--admin-url', adminUrl]),
        env: { ...childEnv, CMAUTOBUY_DEVICE_TOKEN: device.token },
        readyLine: /DEVICE WORKER READY/,
        logFile: path.join(paths.logs, `device-${device.deviceId}.out`),
      });
      children.push(worker);
      if (stopping) return;
    }

    await waitForTemporal(target.address, target.namespace, 30_000);
    const temporalUi = temporal?.uiUrl
      ? `${temporal.uiUrl}/namespaces/${target.namespace}/workflows`
      : (env.CMAUTOBUY_TEMPORAL_UI_URL ?? 'unknown');
    console.log(`READY admin=${adminUrl} temporal-ui=${temporalUi}`);
    say(`logs: ${paths.logs}; Ctrl-C stops everything`);

    // A child that dies on its own takes the system down with it: half a system is worse.
    await Promise.race(children.map((c) => c.exited.then(() => c.name)))
      .then((name) => {
        if (!stopping) {
          console.error(`[start] ${name} exited unexpectedly; see ${paths.logs}`);
          return stopAll(1);
        }
        return undefined;
      });
  } catch (err) {
    console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
    await stopAll(1);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
