import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { BROWSER_SECURITY_HEADERS, checkHost } from '../../platform/http-guard';
import { auditFallback } from './audit-fallback';
import { codecCors } from './codec-cors';
import { identityGate } from '../auth/gate';
import type { AppDeps } from './deps';
import { errorMiddleware, HttpError } from './errors';
import { httpLatency } from '../metrics/http-latency';
import { allRouters } from './routes';
import { isApiPath, staticUi } from './static-ui';
import { temporalUiProxy } from './temporal-ui-proxy';

/** Thin middleware, one concern each; every route validates with zod and calls a service. */
export function createApp(deps: AppDeps): Koa {
  // Behind a proxy, ctx.ip is the last X-Forwarded-For entry: the one our proxy appended,
  // never one a client wrote itself (docs/security.md "Login limit").
  const app = new Koa({ proxy: deps.security.trustProxy, maxIpsCount: 1 });
  app.silent = true; // errorMiddleware logs; Koa's default handler would print stacks to stderr

  app.use(httpLatency());
  app.use(errorMiddleware(deps.log));
  app.use(async (ctx, next) => {
    ctx.set(BROWSER_SECURITY_HEADERS);
    const refused = checkHost(ctx.headers, deps.security.allowedHosts);
    if (refused) throw new HttpError(421, 'HOST_NOT_ALLOWED', refused.message);
    await next();
  });
  app.use(async (ctx, next) => {
    const started = Date.now();
    await next();
    deps.log.debug({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Date.now() - started }, 'http');
  });
  // the embedded Temporal Web UI checks the session itself: its POSTs carry the UI's CSRF token
  app.use(
    temporalUiProxy({ upstream: deps.temporal.settings.uiUpstream, sessions: deps.security.sessions, log: deps.log }),
  );
  // Identity before any body is read, so every /api route is protected by default
  // (admin/auth/zones.ts); the audit fallback sits inside it, around every router.
  app.use(codecCors(deps.temporal.settings.uiUrl));
  app.use(
    identityGate({
      db: deps.db,
      sessions: deps.security.sessions,
      deviceAuth: deps.security.deviceAuth,
      log: deps.log,
      metricsTokenSha256: deps.security.metricsTokenSha256,
    }),
  );
  app.use(auditFallback(deps.db, deps.log));
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: '1mb',
      onError: (err) => {
        if ((err as { status?: number }).status === 413)
          throw new HttpError(413, 'BODY_TOO_LARGE', 'the JSON body is larger than 1 MB');
        throw new HttpError(400, 'INVALID_JSON', 'request body is not valid JSON');
      },
    }),
  );

  for (const router of allRouters(deps)) {
    app.use(router.routes()).use(router.allowedMethods());
  }
  app.use(async (ctx, next) => {
    if (isApiPath(ctx.path)) throw new HttpError(404, 'NOT_FOUND', `no route ${ctx.method} ${ctx.path}`);
    await next();
  });
  app.use(staticUi(deps.uiDist));
  return app;
}
