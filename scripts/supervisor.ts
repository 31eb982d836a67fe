import path from 'node:path';
import { parseEnv } from '../admin/config/env';
import { ConfigError } from '../platform/config';
import { dataPaths } from '../platform/data-dir';
import { ensurePayloadKeyFile } from '../temporal/codec/keys';
import { TEMPORAL_UI_PATH, temporalTarget } from '../temporal/connection';
import { tightenTree, usePrivateUmask } from '../platform/private-files';
import { waitForTemporal } from '../temporal/dev-server';
import { PROJECT_ROOT } from '../temporal/binaries';
import { ChildSpecs } from './supervise/child-specs';
import { SupervisedChild, type ChildSpec } from '../platform/children';
import { MetricsTargets } from './supervise/metrics-targets';
import { ensureUiBuilt } from './supervise/ui-build';
import { SIM_PHONES } from './supervise/sim-devices';
import { approveSimPhones, simHostCredential } from './supervise/sim-host';
import { restartLogger } from './supervise/restart-log';
import { startTemporal, type EmbeddedTemporal } from './supervise/temporal';

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
  const children: SupervisedChild[] = [];
  const onRestart = restartLogger(paths.logs, say);
  /** started, supervised, and stopped (newest first) by stopAll */
  const start = async (spec: ChildSpec) => {
    const child = await SupervisedChild.start(spec, { onRestart });
    children.push(child);
    return child;
  };
  let temporal: EmbeddedTemporal | undefined;
  let stopping = false;

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping …');
    for (const child of children) child.standDown();
    temporal?.standDown();
    // the phone host drains its device workers (their claims' heartbeat timeout) before it exits
    for (const child of [...children].reverse()) await child.stop(child.name === 'phone-host' ? 40_000 : undefined);
    await temporal?.stop();
    say('stopped');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));

  try {
    ensureUiBuilt(PROJECT_ROOT, say);
    temporal = await startTemporal(env, paths, target, say, onRestart);
    if (stopping) return;

    const metrics = new MetricsTargets();
    const specs = new ChildSpecs(env, paths, target, keyEnv, temporal, metrics);
    const sim = await start(specs.sim());
    if (stopping) return;
    const sybSim = await start(specs.sybSim());
    if (stopping) return;
    const adminUrl = (await start(await specs.admin(sybSim.readyMatch[1]!))).readyMatch[1]!;
    metrics.add('admin', 'admin', new URL(adminUrl).host);
    if (stopping) return;
    await start(await specs.adminWorker(sybSim.readyMatch[1]!));
    if (stopping) return;

    // The phones there now are approved by the system, a phone added later waits on 设备.
    const simHost = await simHostCredential(paths.adminDb);
    await start(await specs.phoneHost(adminUrl, sim.readyMatch[1]!, simHost.env));
    if (stopping) return;
    await approveSimPhones(paths.adminDb, simHost.hostId, SIM_PHONES, {
      timeoutMs: 60_000,
      stopped: () => stopping,
    });
    if (stopping) return;

    await waitForTemporal(target.address, target.namespace, 30_000);
    // the embedded UI as operators open it: through the admin, which checks their session
    const temporalUi = temporal?.uiUrl
      ? `${adminUrl}${TEMPORAL_UI_PATH}/namespaces/${target.namespace}/workflows`
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
