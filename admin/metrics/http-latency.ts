import type { Context, Middleware } from 'koa';
import { Histogram } from 'prom-client';
import { DURATION_BUCKETS_SECONDS } from '../../platform/metrics';
import { adminMetricsRegistry } from './metrics';

const httpDuration = new Histogram({
  name: 'cmautobuy_http_request_duration_seconds',
  help: 'Admin HTTP requests by method, route pattern (never the raw path) and status class',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: DURATION_BUCKETS_SECONDS,
  registers: [adminMetricsRegistry],
});

// The method and the path come from the client: only closed lists may become label values.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The router's pattern (`/api/tasks/:taskId`) when a route matched; otherwise one of two fixed
 * values: an /api request no route took (refused by the identity gate, or unknown) or the UI.
 */
function routeLabel(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  const p = ctx.path.toLowerCase();
  return p === '/api' || p.startsWith('/api/') || p.startsWith('//') ? '(unrouted)' : '(ui)';
}

/**
 * Outermost middleware of the admin app, so it sees the status the client gets, including
 * errors turned into `{"error":…}` answers.
 */
export function httpLatency(): Middleware {
  return async (ctx, next) => {
    const end = httpDuration.startTimer();
    try {
      await next();
    } finally {
      const method = KNOWN_METHODS.has(ctx.method) ? ctx.method : 'OTHER';
      end({ method, route: routeLabel(ctx), status_class: `${Math.floor(ctx.status / 100)}xx` });
    }
  };
}
