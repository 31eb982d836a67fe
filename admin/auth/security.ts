import crypto from 'node:crypto';
import { allowedHostNames } from '../../platform/http-guard';
import type { AdminDb } from '../db/database';
import { EvidenceStore } from '../evidence/store';
import { DeviceAuthenticator } from './device-credentials';
import { KnownClients } from './known-clients';
import { LoginThrottle, type ThrottlePolicy } from './login-throttle';
import { DEFAULT_SESSION_POLICY, SessionStore, type SessionPolicy } from './sessions';

/** The admin's identity and evidence services, built once per process and shared by the app. */
export interface Security {
  sessions: SessionStore;
  throttle: LoginThrottle;
  knownClients: KnownClients;
  deviceAuth: DeviceAuthenticator;
  evidence: EvidenceStore;
  /** host names the admin answers to (platform/http-guard.ts) */
  allowedHosts: ReadonlySet<string>;
  /** a reverse proxy is in front: the client address comes from X-Forwarded-For, cookies are Secure */
  trustProxy: boolean;
  /** SHA-256 of CMAUTOBUY_METRICS_TOKEN: opens `GET /api/metrics/targets` to a scraper (docs/operations.md §3) */
  metricsTokenSha256: Buffer | null;
}

export interface SecurityOptions {
  sessionPolicy?: SessionPolicy;
  throttlePolicy?: Partial<ThrottlePolicy>;
  /** CMAUTOBUY_TRUST_PROXY=1 */
  trustProxy?: boolean;
  /** the bind host and CMAUTOBUY_ADMIN_ALLOWED_HOSTS; loopback names are always allowed */
  allowedHosts?: string[];
  /** CMAUTOBUY_METRICS_TOKEN */
  metricsToken?: string | undefined;
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();

/** Whether an `Authorization` header carries the metrics token; constant time (both sides hashed first). */
export function isMetricsToken(authorization: string, expectedSha256: Buffer | null): boolean {
  const m = /^bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!expectedSha256 || !m) return false;
  return crypto.timingSafeEqual(sha256(m[1]!), expectedSha256);
}

/** `reads`: where sessions are looked up (admin/db/database.ts `openAdminReads`); the main connection by default */
export function createSecurity(
  db: AdminDb,
  evidenceDir: string,
  opts: SecurityOptions = {},
  reads: AdminDb = db,
): Security {
  return {
    sessions: new SessionStore(db, opts.sessionPolicy ?? DEFAULT_SESSION_POLICY, undefined, reads),
    throttle: new LoginThrottle(opts.throttlePolicy),
    knownClients: new KnownClients(),
    deviceAuth: new DeviceAuthenticator(db),
    evidence: new EvidenceStore(db, evidenceDir),
    allowedHosts: allowedHostNames(undefined, opts.allowedHosts ?? []),
    trustProxy: opts.trustProxy ?? false,
    metricsTokenSha256: opts.metricsToken ? sha256(opts.metricsToken) : null,
  };
}
