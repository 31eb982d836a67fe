import Router from '@koa/router';
import { z } from 'zod';
import type { UiConfig } from '../../../domain/ui-config';
import { recordAudit } from '../../audit/audit';
import { burnPasswordCheck, verifyPassword } from '../../auth/passwords';
import { KNOWN_CLIENT_COOKIE } from '../../auth/known-clients';
import { operatorOf } from '../../auth/principal';
import { SESSION_COOKIE, sessionIdSha256 } from '../../auth/sessions';
import { writeTransaction } from '../../db/database';
import type { AppDeps } from '../deps';
import { HttpError } from '../errors';
import { parseBody } from '../validate';

const loginBody = z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(1024) });

/** `POST /api/session` (login), `DELETE /api/session` (logout), `GET /api/me`, `GET /api/config`. */
export function sessionRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const { sessions, throttle, knownClients, trustProxy } = deps.security;
  const router = new Router({ prefix: '/api' });

  router.post('/session', async (ctx) => {
    const body = parseBody(ctx, loginBody);
    const address = ctx.ip;
    // Counted here, before the password is checked and with no await in between: parallel
    // guesses are refused once the limit is reached instead of all being checked.
    const knownClientId = knownClients.verify(ctx.cookies.get(KNOWN_CLIENT_COOKIE), body.username);
    const admission = throttle.admit({ username: body.username, address, knownClientId });
    if (!admission.admitted) {
      const wait = admission.retryAfterSeconds;
      ctx.set('Retry-After', String(wait));
      throw new HttpError(429, 'LOGIN_RATE_LIMITED', `too many failed logins; try again in ${wait} s`, {
        retry_after_seconds: wait,
      });
    }
    const user = await db
      .selectFrom('users')
      .select(['id', 'username', 'password_hash'])
      .where('username', '=', body.username)
      .executeTakeFirst();
    const ok = user ? await verifyPassword(body.password, user.password_hash) : await burnPasswordCheck(body.password);
    if (!user || !ok) {
      // An unknown name is not recorded: people type their password into the name field.
      await recordAudit(
        db,
        { kind: 'system', name: 'login', sourceIp: address },
        {
          action: 'session.login_failed',
          ...(user ? { target: { kind: 'user', id: user.username } } : {}),
        },
      );
      throw new HttpError(401, 'LOGIN_FAILED', 'wrong user name or password');
    }
    throttle.succeeded(admission.attempt);
    const previous = sessionIdSha256(ctx.cookies.get(SESSION_COOKIE) ?? '');
    const created = await writeTransaction(db, async (trx) => {
      // Login never continues a session that existed before it (no session fixation).
      if (previous) await sessions.destroy(previous, trx);
      const session = await sessions.create(user.id, trx);
      await recordAudit(
        trx,
        { kind: 'operator', name: user.username, sourceIp: address },
        { action: 'session.login', target: { kind: 'user', id: user.username } },
      );
      return session;
    });
    // Behind a TLS-terminating proxy the admin itself speaks plain HTTP, yet the browser
    // must only ever send these cookies over HTTPS.
    const secure = ctx.secure || trustProxy;
    if (secure) ctx.cookies.secure = true;
    ctx.cookies.set(SESSION_COOKIE, created.cookieValue, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/',
      maxAge: created.maxAgeMs,
      overwrite: true,
    });
    const known = knownClients.issue(user.username);
    ctx.cookies.set(KNOWN_CLIENT_COOKIE, known.value, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/api/session',
      maxAge: known.maxAgeMs,
      overwrite: true,
    });
    ctx.body = { csrf_token: created.csrfToken };
  });

  router.delete('/session', async (ctx) => {
    const operator = operatorOf(ctx);
    await writeTransaction(db, async (trx) => {
      await sessions.destroy(operator.sessionIdSha256, trx);
      await recordAudit(
        trx,
        { kind: 'operator', name: operator.username, sourceIp: ctx.ip },
        { action: 'session.logout', target: { kind: 'user', id: operator.username } },
      );
    });
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
    ctx.status = 204;
  });

  // The CSRF token is derived from the cookie, so a tab opened later can fetch it here.
  router.get('/me', (ctx) => {
    const operator = operatorOf(ctx);
    ctx.body = { username: operator.username, csrf_token: operator.csrfToken };
  });

  // What the UI needs to know about this admin's surroundings, for logged-in operators only:
  // the Temporal Web UI address is not for strangers.
  router.get('/config', (ctx) => {
    operatorOf(ctx);
    const { uiUrl, namespace } = deps.temporal.settings;
    const config: UiConfig = { temporal_ui_url: uiUrl ?? null, temporal_namespace: namespace };
    ctx.body = config;
  });

  return router;
}
