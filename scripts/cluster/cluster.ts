import fs from 'node:fs';
import path from 'node:path';
import type { SupervisedChild } from '../../platform/children';
import { createLogger } from '../../platform/logger';
import { waitForTemporal } from '../../temporal/dev-server';
import { DEFAULT_RETENTION_DAYS } from '../../temporal/namespace';
import { checkTemporalAtStartup } from '../../temporal/startup-checks';
import { ensureServerBuild } from './build';
import { clusterPorts, SERVICES, writeConfig, type Service } from './config';
import { startPostgres, type Postgres } from './postgres';
import { endLeftovers, restartService, startService } from './processes';
import { ensureSchemas } from './schema';

export type ClusterProcess = Service | 'postgres';

export interface ClusterOptions {
  /** the cluster's folder: PostgreSQL's data, the config, the logs; a second start reuses them */
  root: string;
  say: (line: string) => void;
  /** the frontend's gRPC port; default: a free one, kept in `<root>/ports.json` */
  port?: number;
  namespace?: string;
  retentionDays?: number;
}

export interface Cluster {
  /** the frontend, for CMAUTOBUY_TEMPORAL_ADDRESS */
  address: string;
  namespace: string;
  /** the current pid of each process (a restarted service has a new one; 0 while PostgreSQL is down) */
  pids(): Record<ClusterProcess, number>;
  /**
   * A service: SIGTERM, and back once its successor is ready. PostgreSQL: `pg_ctl restart -m
   * immediate`, a crash as far as the services can tell. A killed process comes back by itself too.
   */
  restart(target: ClusterProcess): Promise<void>;
  /** stops everything it started: the four services, then PostgreSQL */
  stop(): Promise<void>;
}

/**
 * A Temporal cluster as production runs it: the server built from source at a pinned release,
 * PostgreSQL for persistence and visibility, frontend, history, matching and worker as four
 * processes; the namespace and the search attributes registered as the embedded server has them.
 */
export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const { say } = opts;
  const root = path.resolve(opts.root);
  fs.mkdirSync(root, { recursive: true });
  const namespace = opts.namespace ?? 'cmautobuy';
  const build = await ensureServerBuild(say);
  const ports = await clusterPorts(root, opts.port);
  const logDir = path.join(root, 'logs');
  const configFile = writeConfig(root, ports);
  await endLeftovers(configFile, say);

  say(`starting PostgreSQL on 127.0.0.1:${ports.postgres}`);
  const postgres = await startPostgres(path.join(root, 'postgres'), ports.postgres, say);
  const services = new Map<Service, SupervisedChild>();
  const stop = async () => {
    postgres.standDown();
    for (const child of services.values()) child.standDown();
    await Promise.all([...services.values()].map((c) => c.stop(15_000)));
    await postgres.stop();
  };
  const address = `127.0.0.1:${ports.grpc.frontend}`;
  try {
    await ensureSchemas(build, root, ports.postgres, say);
    say(`starting Temporal ${build.version}: ${SERVICES.join(', ')} (logs in ${logDir})`);
    const start = async (s: Service) =>
      void services.set(s, await startService(s, { server: build.server, configFile, logDir, say }));
    // The first process writes the cluster's metadata to a new database; four at once race on it.
    const [first, ...rest] = SERVICES;
    await start(first);
    // all settled, so a service that fails leaves none still starting behind stop()
    const failed = (await Promise.allSettled(rest.map(start))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    await waitForTemporal(address, 'temporal-system', 120_000);
    await registerOurNamespace(address, namespace, opts.retentionDays ?? DEFAULT_RETENTION_DAYS, logDir);
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  return {
    address,
    namespace,
    pids: () => pidsOf(services, postgres),
    async restart(target) {
      if (target === 'postgres') return postgres.restart();
      const child = services.get(target);
      if (!child) throw new Error(`no such service: ${String(target)}`);
      await restartService(child);
    },
    stop,
  };
}

function pidsOf(services: Map<Service, SupervisedChild>, postgres: Postgres): Record<ClusterProcess, number> {
  const pid = (s: Service) => services.get(s)?.pid ?? 0;
  return {
    frontend: pid('frontend'),
    history: pid('history'),
    matching: pid('matching'),
    worker: pid('worker'),
    postgres: postgres.pid(),
  };
}

/**
 * The namespace and the five Keyword search attributes, by the code the admin runs against the
 * embedded server (temporal/startup-checks.ts): this cluster is ours to set up the same way.
 */
async function registerOurNamespace(
  address: string,
  namespace: string,
  retentionDays: number,
  logDir: string,
): Promise<void> {
  const log = createLogger({ name: 'cluster-setup', logDir, stdout: fs.createWriteStream('/dev/null') });
  const outcome = await checkTemporalAtStartup({
    temporal: { address, namespace, embedded: true, retentionDays },
    log,
    checkRetention: true,
    connectTimeoutMs: 30_000,
  });
  if (outcome !== 'ok') throw new Error(`Temporal at ${address} stopped answering while ${namespace} was registered`);
}
