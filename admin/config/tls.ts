import { ConfigError, readConfigFile } from '../../platform/config';
import { isLoopbackHost } from '../../platform/network';
import type { Env } from './env';

/**
 * Device tokens and session cookies cross the network in clear unless TLS is on, so the admin
 * binds to loopback unless it has a certificate (docs/security.md). Temporal's rule is
 * temporal/connection.ts.
 */

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

export function adminListen(env: Env): AdminListen {
  const cert = env.CMAUTOBUY_ADMIN_TLS_CERT;
  const key = env.CMAUTOBUY_ADMIN_TLS_KEY;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError('CMAUTOBUY_ADMIN_TLS_CERT and CMAUTOBUY_ADMIN_TLS_KEY go together: set both or neither');
  }
  const listen: AdminListen = {
    host: env.CMAUTOBUY_ADMIN_HOST,
    port: env.CMAUTOBUY_ADMIN_PORT,
    tls:
      cert && key
        ? {
            cert: readConfigFile('CMAUTOBUY_ADMIN_TLS_CERT', cert),
            key: readConfigFile('CMAUTOBUY_ADMIN_TLS_KEY', key),
          }
        : undefined,
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
