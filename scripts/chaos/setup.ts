import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { openAdminDb } from '../../admin/db/database';
import { stateQuery } from '../../domain/contracts/purchase-messages';
import { installPayloadKeys, temporalDataConverter } from '../../temporal/codec';
import { resolvePayloadKeys } from '../../temporal/codec/keys';
import { collectedInTestDb } from '../../test/collected';
import { startReferencePurchase } from '../../test/reference-purchase';
import type { ChaosClusterRun } from './cluster';
import type { Killer, PointReport } from './controller';
import type { ChaosPair } from './matrix';
import type { ChaosSystem } from './system';

/** How long the phone's ADB link stays down when the run drops it. */
const LINK_DOWN_MS = 5_000;

/**
 * The system ready for purchases, as an operator makes it ready: the goods collected, and the
 * phones' PDD version released after a dry run passed on it. Returns the dry run's task.
 */
export async function prepareSystem(system: ChaosSystem, say: (line: string) => void): Promise<string> {
  const db = openAdminDb(path.join(system.dataDir, 'admin.db'));
  try {
    await collectedInTestDb(db, '937122477375');
  } finally {
    await db.destroy();
  }
  const task_id = await startReferencePurchase(system.op, { mode: 'dry_run', quantity: 1, maxTotalPriceCent: 2000 });
  for (let i = 0; ; i++) {
    const t = (await system.op.get(`/api/tasks/${task_id}`)).body as { status: string; reason_code: string | null };
    if (t.status === 'DRY_RUN_PASSED') break;
    if (i > 600 || ['NEEDS_MANUAL', 'FAILED'].includes(t.status))
      throw new Error(`the dry run before the chaos run did not pass: ${t.status} ${t.reason_code ?? ''}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const released = await system.op.post('/api/app-versions/8.17.0/release');
  if (released.status !== 200) throw new Error(`release refused: ${released.status} ${JSON.stringify(released.body)}`);
  say('goods collected, dry run passed, PDD 8.17.0 released');
  return task_id;
}

/** What the controller does at a fired point, on this system (and its cluster). */
export function systemKiller(
  system: ChaosSystem,
  cluster: ChaosClusterRun | null,
  say: (line: string) => void,
): Killer & { close(): Promise<void> } {
  installPayloadKeys(
    resolvePayloadKeys({
      value: cluster?.temporal.payloadKeys,
      dataDir: system.dataDir,
      embedded: cluster === null,
    }),
  );
  const connecting = Connection.connect({ address: system.temporalAddress });
  const client = connecting.then(
    (connection) => new Client({ connection, namespace: 'cmautobuy', dataConverter: temporalDataConverter() }),
  );
  return {
    async stepOf(workflowId) {
      const query = (await client).workflow.getHandle(workflowId).query(stateQuery);
      const state = await Promise.race([query, new Promise<null>((r) => setTimeout(() => r(null), 5_000))]);
      return state ? { step: state.step, deviceId: state.deviceId } : null;
    },
    async kill(pair: ChaosPair, report: PointReport, deviceId: string | null) {
      if (pair.process === 'adb-link') return dropLink(system, report, deviceId, say);
      if (cluster && cluster.owns(pair.process)) return cluster.kill(pair.process);
      const pids = system.pidsOf(pair.process, pair.process === 'device-worker' ? deviceId : null);
      say(`  ${pair.step}: SIGKILL ${pair.process} ${pids.join(',') || '(none running)'}`);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
    },
    async close() {
      await (await connecting).close();
    },
  };
}

/** The phone drops off ADB for a while (the simulator's fault), then comes back with its faults as they were. */
async function dropLink(
  system: ChaosSystem,
  report: PointReport,
  deviceId: string | null,
  say: (line: string) => void,
): Promise<void> {
  const devices = (await system.op.get('/api/devices')).body as { device_id: string; serial: string }[];
  const serials = report.serial
    ? [report.serial]
    : devices.filter((d) => !deviceId || d.device_id === deviceId).map((d) => d.serial);
  for (const serial of serials) {
    const url = `${system.simControl}/devices/${serial}/faults`;
    const before = (await (await fetch(url)).json()) as Record<string, unknown>;
    const put = (faults: Record<string, unknown>) =>
      fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
    await put({ ...before, disconnect_after_commands: 0 });
    say(
      `  ${report.point.kind === 'act' ? report.point.act : 'step'}: ADB link of ${serial} down for ${LINK_DOWN_MS / 1000} s`,
    );
    setTimeout(() => void put(before).catch(() => undefined), LINK_DOWN_MS);
  }
}
