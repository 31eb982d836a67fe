import fs from 'node:fs';
import net from 'node:net';
import type { Env } from './env';
import { ConfigError } from './env';

/**
 * Transport rules (seed 002 §四 "Bearer 传输"): device tokens and session cookies cross the
 * network in clear unless TLS is on, so the admin binds to loopback unless it has a
 * certificate, and talks plain gRPC to Temporal only on loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  if (net.isIPv6(h)) return h === '::1' || h.startsWith('::ffff:127.');
  return false;
}

export interface AdminTls {
  cert: Buffer;
  key: Buffer;
}

export interface AdminListen {
  host: string;
  port: number;
  tls: AdminTls | undefined;
  /** CMAUTOBUY_ADMIN_ALLOW_PLAINTEXT=1: TLS is terminated in front of the admin (documented in docs/security.md) */
  allowPlaintextNonLoopback: boolean;
}

function readPem(variable: string, file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new ConfigError(`${variable}: cannot read ${file}: ${(err as Error).message}`);
  }
}

export function adminListen(env: Env): AdminListen {
  const cert = env.CMAUTOBUY_ADMIN_TLS_CERT;
  const key = env.CMAUTOBUY_ADMIN_TLS_KEY;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError('CMAUTOBUY_ADMIN_TLS_CERT and CMAUTOBUY_ADMIN_TLS_KEY go together: set both or neither');
  }
  const listen: AdminListen = {
    host: env.CMAUTOBUY_ADMIN_HOST,
    port: env.CMAUTOBUY_ADMIN_PORT,
    tls: cert && key ? { cert: readPem('CMAUTOBUY_ADMIN_TLS_CERT', cert), key: readPem('CMAUTOBUY_ADMIN_TLS_KEY', key) } : undefined,
    allowPlaintextNonLoopback: env.CMAUTOBUY_ADMIN_ALLOW_PLAINTEXT === '1',
  };
  assertAdminListenIsSafe(listen);
  return listen;
}

export function assertAdminListenIsSafe(listen: Pick<AdminListen, 'host' | 'tls' | 'allowPlaintextNonLoopback'>): void {
  if (listen.tls || listen.allowPlaintextNonLoopback || isLoopbackHost(listen.host)) return;
  throw new ConfigError(
    `refusing to listen on ${listen.host} without TLS: set CMAUTOBUY_ADMIN_TLS_CERT and CMAUTOBUY_ADMIN_TLS_KEY, ` +
      'or CMAUTOBUY_ADMIN_ALLOW_PLAINTEXT=1 when a TLS proxy on a trusted link fronts the admin (docs/security.md)',
  );
}

/** The `tls` option of a Temporal `Connection` / `NativeConnection` (both take this shape). */
export interface TemporalTls {
  serverNameOverride?: string;
  serverRootCACertificate?: Buffer;
  clientCertPair?: { crt: Buffer; key: Buffer };
}

/**
 * TLS (and mTLS with a client certificate) towards Temporal, for the admin and every device
 * worker. A non-loopback Temporal address without TLS is refused unless explicitly allowed.
 */
export function temporalTls(env: Env, address: string): TemporalTls | undefined {
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
    ...(ca ? { serverRootCACertificate: readPem('CMAUTOBUY_TEMPORAL_TLS_CA', ca) } : {}),
    ...(cert && key ? { clientCertPair: { crt: readPem('CMAUTOBUY_TEMPORAL_TLS_CERT', cert), key: readPem('CMAUTOBUY_TEMPORAL_TLS_KEY', key) } } : {}),
  };
}
