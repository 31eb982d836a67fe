import type { AdminDb } from '../db/database';
import { EvidenceStore } from '../evidence/store';
import { DeviceAuthenticator } from './device-credentials';
import { DEFAULT_THROTTLE_POLICY, LoginThrottle, type ThrottlePolicy } from './login-throttle';
import { DEFAULT_SESSION_POLICY, SessionStore, type SessionPolicy } from './sessions';

/** The admin's identity and evidence services, built once per process and shared by the app. */
export interface Security {
  sessions: SessionStore;
  throttle: LoginThrottle;
  deviceAuth: DeviceAuthenticator;
  evidence: EvidenceStore;
}

export interface SecurityOptions {
  sessionPolicy?: SessionPolicy;
  throttlePolicy?: ThrottlePolicy;
}

export function createSecurity(db: AdminDb, evidenceDir: string, opts: SecurityOptions = {}): Security {
  return {
    sessions: new SessionStore(db, opts.sessionPolicy ?? DEFAULT_SESSION_POLICY),
    throttle: new LoginThrottle(opts.throttlePolicy ?? DEFAULT_THROTTLE_POLICY),
    deviceAuth: new DeviceAuthenticator(db),
    evidence: new EvidenceStore(db, evidenceDir),
  };
}
