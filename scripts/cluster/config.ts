import fs from 'node:fs';
import path from 'node:path';
import { DEVICES_TASK_QUEUE } from '../../domain/task-queues';
import { freePort } from '../../platform/network';

export const SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;
export type Service = (typeof SERVICES)[number];

/** Every port of a cluster, kept in `<root>/ports.json` so a second start on the same root reuses them. */
interface ClusterPorts {
  postgres: number;
  /** gRPC of each service, frontend's is the one clients use */
  grpc: Record<Service, number>;
  /** ringpop: how the four processes find each other (through the membership table) */
  membership: Record<Service, number>;
  frontendHttp: number;
}

export const DATABASES = { default: 'temporal', visibility: 'temporal_visibility' } as const;
/** the role initdb makes the superuser; the server and the schema tool log in as it */
export const DB_USER = 'temporal';

export async function clusterPorts(root: string, frontend?: number): Promise<ClusterPorts> {
  const file = path.join(root, 'ports.json');
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterPorts;
    if (frontend === undefined || frontend === saved.grpc.frontend) return saved;
    const ports = { ...saved, grpc: { ...saved.grpc, frontend } };
    fs.writeFileSync(file, `${JSON.stringify(ports, null, 2)}\n`);
    return ports;
  }
  const perService = async (): Promise<Record<Service, number>> => ({
    frontend: await freePort(),
    history: await freePort(),
    matching: await freePort(),
    worker: await freePort(),
  });
  const grpc = await perService();
  if (frontend !== undefined) grpc.frontend = frontend;
  const ports: ClusterPorts = {
    postgres: await freePort(),
    grpc,
    membership: await perService(),
    frontendHttp: await freePort(),
  };
  fs.writeFileSync(file, `${JSON.stringify(ports, null, 2)}\n`);
  return ports;
}

/**
 * The claim queue in one partition: a free phone then takes the waiting claim of the highest
 * priority, then the oldest (docs/architecture.md §3.2); with several partitions a poller sees only
 * its partition's backlog. The other queues keep the server's default of four, as a production
 * cluster would. Eager activities as the embedded server runs them (docs/operations.md §1.2).
 */
function dynamicConfigYaml(): string {
  const onePartition = `  - value: 1\n    constraints: { taskQueueName: ${DEVICES_TASK_QUEUE} }\n`;
  return [
    `matching.numTaskqueueReadPartitions:\n${onePartition}`,
    `matching.numTaskqueueWritePartitions:\n${onePartition}`,
    'system.enableActivityEagerExecution:\n  - value: true\n',
  ].join('');
}

function datastore(database: string, ports: ClusterPorts, maxConns: number): string {
  return `      sql:
        pluginName: postgres12
        databaseName: ${database}
        connectAddr: "127.0.0.1:${ports.postgres}"
        connectProtocol: tcp
        user: ${DB_USER}
        password: ""
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: 1h
`;
}

function serviceYaml(service: Service, ports: ClusterPorts): string {
  const http = service === 'frontend' ? `\n      httpPort: ${ports.frontendHttp}` : '';
  return `  ${service}:
    rpc:
      grpcPort: ${ports.grpc[service]}
      membershipPort: ${ports.membership[service]}
      bindOnIP: 127.0.0.1${http}
`;
}

/**
 * One config file for the four processes (each starts only its `--service`). The shape is the
 * module's config/development-postgres12.yaml without archival, pprof and metrics listeners, whose
 * fixed ports would clash with a second cluster on the same machine.
 */
function serverConfigYaml(ports: ClusterPorts, dynamicConfigFile: string): string {
  const frontend = `127.0.0.1:${ports.grpc.frontend}`;
  return `log:
  stdout: true
  level: info

persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:
${datastore(DATABASES.default, ports, 10)}    visibility:
${datastore(DATABASES.visibility, ports, 4)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1

services:
${SERVICES.map((s) => serviceYaml(s, ports)).join('\n')}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: "${frontend}"

dcRedirectionPolicy:
  policy: noop

publicClient:
  hostPort: "${frontend}"

dynamicConfigClient:
  filepath: "${dynamicConfigFile}"
  pollInterval: 10s
`;
}

/** Writes both files into `<root>/config/` and returns the server config's path. */
export function writeConfig(root: string, ports: ClusterPorts): string {
  const dir = path.join(root, 'config');
  fs.mkdirSync(dir, { recursive: true });
  const dynamic = path.join(dir, 'dynamic.yaml');
  fs.writeFileSync(dynamic, dynamicConfigYaml());
  const file = path.join(dir, 'server.yaml');
  fs.writeFileSync(file, serverConfigYaml(ports, dynamic));
  return file;
}
