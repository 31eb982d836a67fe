import Router from '@koa/router';
import { sql } from 'kysely';
import type { AdminDb } from '../../db/database';
import type { TemporalGateway } from '../../temporal/gateway';

/** `GET /healthz` (README.md "Health"): no auth, and it tells the truth about each dependency. */
export function healthRoutes(deps: { db: AdminDb; temporal: TemporalGateway }): Router {
  const router = new Router();
  router.get('/healthz', async (ctx) => {
    const db = await sql`select 1`
      .execute(deps.db)
      .then(() => 'ok' as const)
      .catch(() => 'down' as const);
    const temporal = (await deps.temporal.healthy()) ? ('ok' as const) : ('down' as const);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: db === 'ok' ? 'ok' : 'degraded', db, temporal };
  });
  return router;
}
