import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { UiConfig } from '../../../domain/ui-config';
import { KNOWN_CLIENT_COOKIE } from '../../auth/known-clients';
import { logIn, logOut, type Login } from '../../auth/login';
import { operatorOf } from '../../auth/principal';
import { SESSION_COOKIE } from '../../auth/sessions';
import { readRestoreNotice } from '../../purchase/catch-up-notice';
import type { AppDeps } from '../deps';
import { parseBody } from '../validate';

const loginBody = z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(1024) });

/** `POST /api/session` (login), `DELETE /api/session` (logout), `GET /api/me`, `GET /api/config`. */
export function sessionRoutes(deps: AppDeps): Router {
  const { db, security } = deps;
  const router = new Router({ prefix: '/api' });

  router.post('/session', async (ctx) => {
    const body = parseBody(ctx, loginBody);
    const login = await logIn(
      db,
      security,
      {
        ...body,
        address: ctx.ip,
        knownClientCookie: ctx.cookies.get(KNOWN_CLIENT_COOKIE),
        sessionCookie: ctx.cookies.get(SESSION_COOKIE),
      },
      (wait) => ctx.set('Retry-After', String(wait)),
    );
    setLoginCookies(ctx, login, security.trustProxy);
    ctx.body = { csrf_token: login.session.csrfToken };
  });

  router.delete('/session', async (ctx) => {
    const operator = operatorOf(ctx);
    await logOut(db, security.sessions, operator, ctx.ip);
    deps.live.closeSession(operator.sessionIdSha256);
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
    ctx.status = 204;
  });

  // The CSRF token is derived from the cookie, so a tab opened later can fetch it here.
  router.get('/me', (ctx) => {
    const operator = operatorOf(ctx);
    ctx.body = { username: operator.username, csrf_token: operator.csrfToken };
  });

  // What the UI needs to know about this admin's surroundings, for logged-in operators only:
  // the Temporal Web UI address is not for strangers, nor is what a restore lost.
  router.get('/config', async (ctx) => {
    operatorOf(ctx);
    const { uiUrl, namespace } = deps.temporal.settings;
    const config: UiConfig = {
      temporal_ui_url: uiUrl ?? null,
      temporal_namespace: namespace,
      restore_notice: await readRestoreNotice(deps.reads),
    };
    ctx.body = config;
  });

  return router;
}

function setLoginCookies(ctx: Context, login: Login, trustProxy: boolean): void {
  // Behind a TLS-terminating proxy the admin itself speaks plain HTTP, yet the browser
  // must only ever send these cookies over HTTPS.
  const secure = ctx.secure || trustProxy;
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(SESSION_COOKIE, login.session.cookieValue, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: login.session.maxAgeMs,
    overwrite: true,
  });
  ctx.cookies.set(KNOWN_CLIENT_COOKIE, login.knownClient.value, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/api/session',
    maxAge: login.knownClient.maxAgeMs,
    overwrite: true,
  });
}
