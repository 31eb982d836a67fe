import type { Context, Middleware, Next } from 'koa';
import type { Logger } from '../../platform/logger';
import { forbidden, unauthenticated, unavailable } from '../../domain/api-error';
import { CredentialStoreUnavailable, type DeviceAuthenticator } from './device-credentials';
import { touchDevice } from './device-registry';
import { HostAuthenticator } from './host-credentials';
import { setDevice, setHost, setMetricsScraper, setOperator } from './principal';
import { isMetricsToken } from './security';
import { csrfMatches, SESSION_COOKIE, type SessionStore } from './sessions';
import { isMutating, zoneOf } from './zones';
import type { AdminDb } from '../db/database';

export interface GateDeps {
  db: AdminDb;
  sessions: SessionStore;
  deviceAuth: DeviceAuthenticator;
  log: Logger;
  metricsTokenSha256: Buffer | null;
}

/** Device failures say nothing: an empty body, so a probe learns only the status. */
function emptyAnswer(ctx: Context, status: 401 | 503): void {
  ctx.status = status;
  ctx.body = '';
}

function hasSessionCookie(ctx: Context): boolean {
  return ctx.cookies.get(SESSION_COOKIE) !== undefined;
}

function hasBearer(ctx: Context): boolean {
  return /^bearer\s/i.test(ctx.get('authorization'));
}

/**
 * The identity gate, mounted before the body parser and every router:
 * - `/api/device/*`: a device Bearer token, looked up on every request; a session cookie on
 *   such a request is refused (a session never acts as a device).
 * - every other `/api/*` route except `POST /api/session`: a live session, and on mutating
 *   methods the X-CSRF-Token of that session; a Bearer token is refused (a device token never
 *   opens an operator route).
 */
export function identityGate(deps: GateDeps): Middleware {
  const hostAuth = new HostAuthenticator(deps.db);
  return async (ctx, next) => {
    const zone = zoneOf(ctx.method, ctx.path);
    if (zone !== 'public') ctx.set('Cache-Control', 'no-store');
    if (zone === 'public' || zone === 'login') return next();

    // `/api/host/*`: a phone host's Bearer token (docs/phone-hosts.md), never a session or a device token
    if (zone === 'host') return hostZone(ctx, next, hostAuth);
    if (zone === 'device') return deviceZone(ctx, next, deps);

    // the scrape targets: a Bearer token here can only be the metrics token, and opens nothing else
    if (zone === 'metrics' && hasBearer(ctx)) {
      if (!isMetricsToken(ctx.get('authorization'), deps.metricsTokenSha256))
        throw unauthenticated('UNAUTHENTICATED', 'wrong metrics token');
      setMetricsScraper(ctx);
      return next();
    }
    if (hasBearer(ctx))
      throw unauthenticated('UNAUTHENTICATED', 'device tokens do not open operator routes; log in as an operator');
    const cookie = ctx.cookies.get(SESSION_COOKIE);
    let session;
    try {
      session = await deps.sessions.authenticate(cookie);
    } catch (err) {
      deps.log.error({ err: (err as Error).message, path: ctx.path }, 'session store unavailable');
      throw unavailable('AUTH_STORE_UNAVAILABLE', 'the admin cannot check sessions right now; try again shortly');
    }
    if (!session) {
      if (cookie !== undefined) ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
      throw unauthenticated(
        'UNAUTHENTICATED',
        cookie === undefined ? 'log in first' : 'your session has ended; log in again',
      );
    }
    if (
      zone !== 'codec' &&
      isMutating(ctx.method) &&
      !csrfMatches(session.csrfToken, ctx.get('x-csrf-token') || undefined)
    ) {
      throw forbidden('CSRF_TOKEN_INVALID', 'missing or wrong X-CSRF-Token header; reload the page or log in again');
    }
    setOperator(ctx, {
      userId: session.userId,
      username: session.username,
      csrfToken: session.csrfToken,
      sessionIdSha256: session.idSha256,
    });
    return next();
  };
}

async function hostZone(ctx: Context, next: Next, hostAuth: HostAuthenticator): Promise<void> {
  if (hasSessionCookie(ctx)) return emptyAnswer(ctx, 401);
  let result;
  try {
    result = await hostAuth.authenticate(ctx.get('authorization') || undefined);
  } catch (err) {
    if (!(err instanceof CredentialStoreUnavailable)) throw err;
    return emptyAnswer(ctx, 503);
  }
  if (!result.ok) return emptyAnswer(ctx, 401);
  setHost(ctx, { hostId: result.hostId });
  return next();
}

async function deviceZone(ctx: Context, next: Next, deps: GateDeps): Promise<void> {
  if (hasSessionCookie(ctx)) return emptyAnswer(ctx, 401);
  let result;
  try {
    result = await deps.deviceAuth.authenticate(ctx.get('authorization') || undefined);
  } catch (err) {
    if (!(err instanceof CredentialStoreUnavailable)) throw err;
    deps.log.error({ err: err.message, path: ctx.path }, 'device credential store unavailable');
    return emptyAnswer(ctx, 503);
  }
  if (!result.ok) return emptyAnswer(ctx, 401);
  setDevice(ctx, { deviceId: result.deviceId });
  await next();
  await touchDevice(deps.db, result.deviceId).catch((err: Error) =>
    deps.log.warn({ err: err.message }, 'could not record device last_seen_at'),
  );
}
