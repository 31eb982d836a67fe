import { recordAudit } from '../audit/audit';
import { releaseSessionHolds } from '../devices/holds';
import { writeTransaction, type AdminDb } from '../db/database';
import { tooMany, unauthenticated } from '../../domain/api-error';
import { burnPasswordCheck, verifyPassword } from './passwords';
import type { Security } from './security';
import { sessionIdSha256 } from './sessions';

export interface LoginRequest {
  username: string;
  password: string;
  /** the client's address, as the admin sees it (the proxy's X-Forwarded-For when trusted) */
  address: string;
  /** the cookies the browser sent with the login */
  knownClientCookie: string | undefined;
  sessionCookie: string | undefined;
}

/** What a login sets in the browser: a new session, and the mark that this browser logged in before. */
export interface Login {
  session: { cookieValue: string; csrfToken: string; maxAgeMs: number };
  knownClient: { value: string; maxAgeMs: number };
}

/**
 * `POST /api/session`: the password against the login limit (admin/auth/login-throttle.ts), then a
 * new session in one transaction with its audit row. A refusal is 429 LOGIN_RATE_LIMITED (its wait
 * handed to `retryAfter` first, for the header) or 401 LOGIN_FAILED.
 */
export async function logIn(
  db: AdminDb,
  security: Pick<Security, 'sessions' | 'throttle' | 'knownClients'>,
  request: LoginRequest,
  retryAfter: (seconds: number) => void,
): Promise<Login> {
  const { sessions, throttle, knownClients } = security;
  const { username, address } = request;
  // Counted here, before the password is checked and with no await in between: parallel
  // guesses are refused once the limit is reached instead of all being checked.
  const knownClientId = knownClients.verify(request.knownClientCookie, username);
  const admission = throttle.admit({ username, address, knownClientId });
  if (!admission.admitted) {
    const wait = admission.retryAfterSeconds;
    retryAfter(wait);
    throw tooMany('LOGIN_RATE_LIMITED', `too many failed logins; try again in ${wait} s`, {
      retry_after_seconds: wait,
    });
  }
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'password_hash'])
    .where('username', '=', username)
    .executeTakeFirst();
  const ok = user
    ? await verifyPassword(request.password, user.password_hash)
    : await burnPasswordCheck(request.password);
  if (!user || !ok) {
    // An unknown name is not recorded: people type their password into the name field.
    await recordAudit(
      db,
      { kind: 'system', name: 'login', sourceIp: address },
      { action: 'session.login_failed', ...(user ? { target: { kind: 'user', id: user.username } } : {}) },
    );
    throw unauthenticated('LOGIN_FAILED', 'wrong user name or password');
  }
  throttle.succeeded(admission.attempt);
  const previous = sessionIdSha256(request.sessionCookie ?? '');
  const session = await writeTransaction(db, async (trx) => {
    // Login never continues a session that existed before it (no session fixation).
    if (previous) await sessions.destroy(previous, trx);
    const created = await sessions.create(user.id, trx);
    await recordAudit(
      trx,
      { kind: 'operator', name: user.username, sourceIp: address },
      { action: 'session.login', target: { kind: 'user', id: user.username } },
    );
    return created;
  });
  return { session, knownClient: knownClients.issue(user.username) };
}

/** `DELETE /api/session`: the session ends, with its audit row. */
export async function logOut(
  db: AdminDb,
  sessions: Security['sessions'],
  operator: { username: string; sessionIdSha256: Buffer },
  address: string,
): Promise<void> {
  await writeTransaction(db, async (trx) => {
    await sessions.destroy(operator.sessionIdSha256, trx);
    // the phones this session held are automation's again (admin/devices/holds.ts)
    await releaseSessionHolds(
      trx,
      { kind: 'operator', name: operator.username, sourceIp: address },
      operator.sessionIdSha256,
    );
    await recordAudit(
      trx,
      { kind: 'operator', name: operator.username, sourceIp: address },
      { action: 'session.logout', target: { kind: 'user', id: operator.username } },
    );
  });
}
