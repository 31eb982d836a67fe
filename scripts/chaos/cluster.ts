import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newPayloadKeyEntry } from '../../temporal/codec/keys';
import { startCluster } from '../cluster/cluster';
import { CLUSTER_PROCESSES, type KillTarget } from './matrix';

/** The Temporal cluster a `--cluster` chaos run starts (scripts/cluster/), and how it kills its parts. */
export interface ChaosClusterRun {
  temporal: { address: string; payloadKeys: string };
  owns(target: KillTarget): boolean;
  kill(target: KillTarget): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `npm run cluster`'s cluster on a folder of the run's own. A service is SIGKILLed and comes
 * back as the cluster brings it back; PostgreSQL is restarted at once (`pg_ctl restart -m
 * immediate`), its connections cut mid-purchase. Against a cluster the payload keys must be given:
 * the run makes one.
 */
export async function startChaosCluster(say: (line: string) => void): Promise<ChaosClusterRun> {
  // the postgres user enters this folder (scripts/cluster/postgres.ts): not the run's private one
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-chaos-cluster-'));
  fs.chmodSync(root, 0o755);
  const cluster = await startCluster({ root, say });
  say(`cluster ready at ${cluster.address}`);
  const owns = (t: KillTarget): t is (typeof CLUSTER_PROCESSES)[number] =>
    (CLUSTER_PROCESSES as readonly string[]).includes(t);
  return {
    temporal: { address: cluster.address, payloadKeys: newPayloadKeyEntry() },
    owns,
    async kill(target) {
      if (!owns(target)) return;
      if (target === 'postgres') {
        say('  PostgreSQL restarted (immediate)');
        return cluster.restart('postgres');
      }
      const pid = cluster.pids()[target];
      say(`  SIGKILL ${target} ${pid}`);
      if (pid > 0) process.kill(pid, 'SIGKILL');
    },
    async stop() {
      await cluster.stop();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
