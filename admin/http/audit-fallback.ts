import type { Context, Middleware } from 'koa';
import type { Logger } from '../../platform/logger';
import type { AdminDb } from '../db/database';
import { isMutating, zoneOf } from '../auth/zones';
import { actorOf } from '../auth/principal';
import { recordAudit, wasAudited } from '../audit/audit';

interface RoutedContext {
  _matchedRoute?: string | RegExp;
  params?: Record<string, string>;
}

/**
 * The safety net for "every state-changing operator action is audited": a successful mutating
 * request whose handler did not call `auditRequest` still gets a row naming the route and its
 * path parameters (never the body, which may hold secrets). Routes should audit explicitly,
 * inside their own transaction; this only makes forgetting visible instead of silent.
 */
export function auditFallback(db: AdminDb, log: Logger): Middleware {
  return async (ctx: Context, next) => {
    await next();
    if (!isMutating(ctx.method) || ctx.status < 200 || ctx.status >= 300 || wasAudited(ctx)) return;
    const zone = zoneOf(ctx.method, ctx.path);
    if (zone !== 'operator' && zone !== 'device') return;
    const routed = ctx as unknown as RoutedContext;
    const route = typeof routed._matchedRoute === 'string' ? routed._matchedRoute : ctx.path;
    try {
      await recordAudit(db, actorOf(ctx), {
        action: `http ${ctx.method} ${route}`,
        target: { kind: 'route', id: ctx.path },
        details: { params: routed.params ?? {}, status: ctx.status, unaudited_route: true },
      });
      log.warn({ method: ctx.method, route }, 'route changed state without an explicit audit entry');
    } catch (err) {
      log.error({ err: (err as Error).message, method: ctx.method, route }, 'could not write fallback audit entry');
    }
  };
}
