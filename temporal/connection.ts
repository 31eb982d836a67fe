import { z } from 'zod';
import { ConfigError, port, readConfigFile } from '../platform/config';
import { isLoopbackHost } from '../platform/network';

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
  // File paths, never the PEM itself.
  CMAUTOBUY_TEMPORAL_TLS: z.enum(['0', '1']).optional(),
  CMAUTOBUY_TEMPORAL_TLS_CA: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_KEY: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_ALLOW_PLAINTEXT: z.enum(['0', '1']).optional(),
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
}

export function temporalTarget(env: TemporalEnv): TemporalTarget {
  const givenUi = env.CMAUTOBUY_TEMPORAL_UI_URL?.replace(/\/+$/, '') ?? null;
  if (env.CMAUTOBUY_TEMPORAL_ADDRESS) {
    return { address: env.CMAUTOBUY_TEMPORAL_ADDRESS, namespace: env.CMAUTOBUY_TEMPORAL_NAMESPACE, embedded: false, uiUrl: givenUi };
  }
  return {
    address: `127.0.0.1:${env.CMAUTOBUY_TEMPORAL_PORT}`,
    namespace: env.CMAUTOBUY_TEMPORAL_NAMESPACE,
    embedded: true,
    uiUrl: givenUi ?? `http://127.0.0.1:${env.CMAUTOBUY_TEMPORAL_UI_PORT}`,
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
}

/**
 * TLS (and mTLS with a client certificate) towards Temporal, for the admin and every device
 * worker. A non-loopback Temporal address without TLS is refused unless explicitly allowed.
 */
export function temporalTls(env: TemporalEnv, address: string): TemporalTls | undefined {
  const ca = env.CMAUTOBUY_TEMPORAL_TLS_CA;
  const cert = env.CMAUTOBUY_TEMPORAL_TLS_CERT;
  const key = env.CMAUTOBUY_TEMPORAL_TLS_KEY;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError('CMAUTOBUY_TEMPORAL_TLS_CERT and CMAUTOBUY_TEMPORAL_TLS_KEY go together (mTLS client certificate): set both or neither');
  }
  const wanted = env.CMAUTOBUY_TEMPORAL_TLS === '1' || ca !== undefined || cert !== undefined;
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
    ...(cert && key ? { clientCertPair: { crt: readConfigFile('CMAUTOBUY_TEMPORAL_TLS_CERT', cert), key: readConfigFile('CMAUTOBUY_TEMPORAL_TLS_KEY', key) } } : {}),
  };
}

/** Address, namespace and transport for a process that connects to Temporal as a client or worker. */
export function temporalConnection(env: TemporalEnv): TemporalConnectionSettings {
  const { address, namespace } = temporalTarget(env);
  return { address, namespace, tls: temporalTls(env, address) };
}
