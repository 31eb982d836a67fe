import { z } from 'zod';
import { ConfigError, port, readConfigFile } from '../platform/config';
import { isLoopbackHost } from '../platform/network';
import { DEFAULT_RETENTION_DAYS } from './namespace';

/**
 * How every process (admin, device worker, supervisor) finds and reaches Temporal: the
 * variables, the address, and the transport rule — plain gRPC only on loopback, TLS or mTLS
 * otherwise (docs/security.md). Admin and device worker build their schemas from this shape.
 */
export const temporalEnvShape = {
  CMAUTOBUY_TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^\s:]+:\d+$/, 'expected host:port, e.g. temporal.internal:7233')
    .optional(),
  CMAUTOBUY_TEMPORAL_NAMESPACE: z.string().min(1).default('cmautobuy'),
  CMAUTOBUY_TEMPORAL_PORT: port.default(7233),
  CMAUTOBUY_TEMPORAL_UI_PORT: port.default(8233),
  /** where engineers open the Web UI of an existing cluster (only with CMAUTOBUY_TEMPORAL_ADDRESS) */
  CMAUTOBUY_TEMPORAL_UI_URL: z.url().optional(),
  /**
   * the embedded dev server's own Web UI (loopback, public path `/temporal`) that the admin serves
   * at `/temporal/` to logged-in operators; `npm start` sets it for its admin
   */
  CMAUTOBUY_TEMPORAL_UI_UPSTREAM: z.url({ protocol: /^http$/ }).optional(),
  // File paths, never the PEM itself.
  CMAUTOBUY_TEMPORAL_TLS: z.enum(['0', '1']).optional(),
  CMAUTOBUY_TEMPORAL_TLS_CA: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_KEY: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_ALLOW_PLAINTEXT: z.enum(['0', '1']).optional(),
  /** Temporal Cloud's API key; the value itself, so it never goes into a file under data/ */
  CMAUTOBUY_TEMPORAL_API_KEY: z.string().min(1).optional(),
  /** how long a closed workflow's history stays visible (embedded server: set; a cluster: checked) */
  CMAUTOBUY_TEMPORAL_RETENTION_DAYS: z.coerce.number().int().min(1).default(DEFAULT_RETENTION_DAYS),
  /** the payload encryption keys, `id1:base64key,id2:base64key` (temporal/codec/keys.ts); checked there */
  CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: z.string().optional(),
  /** OTLP/HTTP endpoint for traces (temporal/tracing.ts); unset = no traces */
  CMAUTOBUY_OTEL_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
};

export type TemporalEnv = z.infer<z.ZodObject<typeof temporalEnvShape>>;

export interface TemporalTarget {
  address: string;
  namespace: string;
  /** true when we start the embedded dev server ourselves */
  embedded: boolean;
  /**
   * The Temporal Web UI operators are sent to (the task page's 工作流 link): the URL given, else
   * the embedded server's UI port; null for an existing cluster whose UI nobody named.
   */
  uiUrl: string | null;
  /** the embedded Web UI the admin serves same-origin at TEMPORAL_UI_PATH, or null (a cluster's UI) */
  uiUpstream: string | null;
}

/**
 * Where the admin serves the embedded Web UI, and the `--ui-public-path` that UI is started
 * with: one path on both sides, so the proxy passes paths through unchanged.
 */
export const TEMPORAL_UI_PATH = '/temporal';

export function temporalTarget(env: TemporalEnv): TemporalTarget {
  const givenUi = env.CMAUTOBUY_TEMPORAL_UI_URL?.replace(/\/+$/, '') ?? null;
  const upstream = env.CMAUTOBUY_TEMPORAL_UI_UPSTREAM?.replace(/\/+$/, '') ?? null;
  if (env.CMAUTOBUY_TEMPORAL_ADDRESS) {
    return {
      address: env.CMAUTOBUY_TEMPORAL_ADDRESS,
      namespace: env.CMAUTOBUY_TEMPORAL_NAMESPACE,
      embedded: false,
      uiUrl: givenUi ?? (upstream ? TEMPORAL_UI_PATH : null),
      uiUpstream: upstream,
    };
  }
  return {
    address: `127.0.0.1:${env.CMAUTOBUY_TEMPORAL_PORT}`,
    namespace: env.CMAUTOBUY_TEMPORAL_NAMESPACE,
    embedded: true,
    uiUrl: givenUi ?? TEMPORAL_UI_PATH,
    uiUpstream: upstream ?? `http://127.0.0.1:${env.CMAUTOBUY_TEMPORAL_UI_PORT}${TEMPORAL_UI_PATH}`,
  };
}

/** The `tls` option of a Temporal `Connection` / `NativeConnection` (both take this shape). */
export interface TemporalTls {
  serverNameOverride?: string;
  serverRootCACertificate?: Buffer;
  clientCertPair?: { crt: Buffer; key: Buffer };
}

/** What a client or a worker needs to connect; the TLS material is read once, at start. */
export interface TemporalConnectionSettings {
  address: string;
  namespace: string;
  tls?: TemporalTls;
  /** sent as `Authorization: Bearer …`; never logged (platform/logger.ts redacts the key) */
  apiKey?: string;
}

/** What a process expects of the namespace at start (temporal/startup-checks.ts). */
export interface TemporalSetup extends TemporalConnectionSettings {
  /** the embedded dev server is ours to fix; a cluster is only checked */
  embedded: boolean;
  retentionDays: number;
}

/**
 * TLS (and mTLS with a client certificate) towards Temporal, for the admin and every device
 * worker. A non-loopback Temporal address without TLS is refused unless explicitly allowed.
 */
export function temporalTls(env: TemporalEnv, address: string): TemporalTls | undefined {
  if (env.CMAUTOBUY_TEMPORAL_API_KEY !== undefined && env.CMAUTOBUY_TEMPORAL_TLS === '0') {
    throw new ConfigError(
      'CMAUTOBUY_TEMPORAL_API_KEY needs TLS (a bearer key over plain gRPC can be read on the wire): unset CMAUTOBUY_TEMPORAL_TLS=0',
    );
  }
  const ca = env.CMAUTOBUY_TEMPORAL_TLS_CA;
  const cert = env.CMAUTOBUY_TEMPORAL_TLS_CERT;
  const key = env.CMAUTOBUY_TEMPORAL_TLS_KEY;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError(
      'CMAUTOBUY_TEMPORAL_TLS_CERT and CMAUTOBUY_TEMPORAL_TLS_KEY go together (mTLS client certificate): set both or neither',
    );
  }
  const wanted =
    env.CMAUTOBUY_TEMPORAL_TLS === '1' ||
    ca !== undefined ||
    cert !== undefined ||
    env.CMAUTOBUY_TEMPORAL_API_KEY !== undefined;
  if (!wanted) {
    const host = address.slice(0, address.lastIndexOf(':'));
    if (!isLoopbackHost(host) && env.CMAUTOBUY_TEMPORAL_ALLOW_PLAINTEXT !== '1') {
      throw new ConfigError(
        `Temporal at ${address} is not on loopback: set CMAUTOBUY_TEMPORAL_TLS=1 (plus CMAUTOBUY_TEMPORAL_TLS_CA / _CERT / _KEY as needed), ` +
          'or CMAUTOBUY_TEMPORAL_ALLOW_PLAINTEXT=1 on a link you trust (docs/security.md)',
      );
    }
    return undefined;
  }
  return {
    ...(env.CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: env.CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME } : {}),
    ...(ca ? { serverRootCACertificate: readConfigFile('CMAUTOBUY_TEMPORAL_TLS_CA', ca) } : {}),
    ...(cert && key
      ? {
          clientCertPair: {
            crt: readConfigFile('CMAUTOBUY_TEMPORAL_TLS_CERT', cert),
            key: readConfigFile('CMAUTOBUY_TEMPORAL_TLS_KEY', key),
          },
        }
      : {}),
  };
}

/** Address, namespace, transport and expectations for a process that connects as a client or worker. */
export function temporalConnection(env: TemporalEnv): TemporalSetup {
  const { address, namespace, embedded } = temporalTarget(env);
  return {
    address,
    namespace,
    tls: temporalTls(env, address),
    ...(env.CMAUTOBUY_TEMPORAL_API_KEY ? { apiKey: env.CMAUTOBUY_TEMPORAL_API_KEY } : {}),
    embedded,
    retentionDays: env.CMAUTOBUY_TEMPORAL_RETENTION_DAYS,
  };
}

/**
 * The options both `Connection.connect` (client) and `NativeConnection.connect` (worker) take,
 * so every connection of every process carries the same TLS and API key. With an API key and
 * no TLS settings the SDK turns TLS on by itself; `tls` is still `{}` here so that is visible.
 */
export function temporalConnectOptions(settings: TemporalConnectionSettings): {
  address: string;
  tls?: TemporalTls;
  apiKey?: string;
} {
  return {
    address: settings.address,
    ...(settings.tls || settings.apiKey ? { tls: settings.tls ?? {} } : {}),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  };
}
