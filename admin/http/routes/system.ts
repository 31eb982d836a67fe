import Router from '@koa/router';
import { z } from 'zod';
import { runSystemCheck } from '../../services/system-check';
import type { TemporalGateway } from '../../temporal/gateway';
import { parseBody } from '../validate';

const systemCheckBody = z.object({ hold_seconds: z.number().int().min(0).max(60).default(0) }).strict();

/** 设置 → 系统自检: proves admin → Temporal → worker → DB end to end. */
export function systemRoutes(deps: { temporal: TemporalGateway }): Router {
  const router = new Router({ prefix: '/api/system' });
  router.post('/checks', async (ctx) => {
    const body = parseBody(ctx, systemCheckBody);
    ctx.body = await runSystemCheck(deps.temporal, body.hold_seconds);
  });
  return router;
}
