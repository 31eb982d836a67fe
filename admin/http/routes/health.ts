import Router from '@koa/router';
import { sql } from 'kysely';
import type { AdminDb } from '../../db/database';
import type { TemporalGateway } from '../../temporal/gateway';

/**
 * How long one answer from Temporal stands for every probe. A load balancer, Prometheus and the UI
 * all probe `/healthz`; asking Temporal once per probe put a server round trip (and, while the
 * server is busy, its queueing) into every probe's latency. Probes inside the window share the one
 * check, so the answer is at most this old.
 */
const TEMPORAL_ANSWER_MS = 1_000;

/** `GET /healthz` (README.md "Health"): no auth, and it tells the truth about each dependency. */
export function healthRoutes(deps: { reads: AdminDb; temporal: TemporalGateway }): Router {
  const router = new Router();
  const temporalHealthy = sharedFor(TEMPORAL_ANSWER_MS, () => deps.temporal.healthy());
  router.get('/healthz', async (ctx) => {
    // on the read connection: a long write transaction (an import) holds the write connection,
    // and a probe queued behind it would call a working admin slow
    const db = await sql`select 1`
      .execute(deps.reads)
      .then(() => 'ok' as const)
      .catch(() => 'down' as const);
    const temporal = (await temporalHealthy()) ? ('ok' as const) : ('down' as const);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: db === 'ok' ? 'ok' : 'degraded', db, temporal };
  });
  return router;
}

/** One call of `check` answers every caller until `ms` after it settled; callers meanwhile wait for it. */
function sharedFor(ms: number, check: () => Promise<boolean>): () => Promise<boolean> {
  let current: { answer: Promise<boolean>; settledAt: number | null } | null = null;
  return () => {
    if (current && (current.settledAt === null || Date.now() - current.settledAt < ms)) return current.answer;
    const entry: { answer: Promise<boolean>; settledAt: number | null } = { answer: check(), settledAt: null };
    void entry.answer.finally(() => (entry.settledAt = Date.now()));
    current = entry;
    return entry.answer;
  };
}
