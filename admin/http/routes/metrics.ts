import Router from '@koa/router';
import { devicePresence } from '../../auth/device-registry';
import { renderAdminMetrics } from '../../metrics/metrics';
import type { AppDeps } from '../deps';

/**
 * `GET /metrics` (docs/operations.md "Metrics"): Prometheus text for the scraper, public like
 * `/healthz` (outside /api, a read), and reachable only where the admin listens — loopback
 * unless TLS. It carries counts and durations only, no identifier of a task, person or secret.
 */
export function metricsRoutes(deps: Pick<AppDeps, 'db' | 'temporal' | 'log'>): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    const { contentType, text } = await renderAdminMetrics(deps.db, devicePresence(deps.temporal, deps.log));
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Type', contentType);
    ctx.body = text;
  });
  return router;
}
