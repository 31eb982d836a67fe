import Router from '@koa/router';
import { z } from 'zod';
import { getPddProduct, listPddProducts, softDeletePdd, startCollect } from '../../catalog/pdd';
import type { AppDeps } from '../deps';
import { parseParams, parseQuery } from '../validate';
import { auditFor } from './catalog-audit';

const params = z.object({ pddGoodsId: z.string().regex(/^\d{1,30}$/, 'digits only') });
const listQuery = z.object({
  q: z.string().max(200).optional(),
  state: z.enum(['pending', 'collecting', 'collected', 'failed']).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** PDD 商品: the goods operators linked, what a phone collected, and the collect workflow. */
export function pddRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/pdd/products' });

  router.get('/', async (ctx) => {
    ctx.body = await listPddProducts(deps.db, parseQuery(ctx, listQuery));
  });

  router.get('/:pddGoodsId', async (ctx) => {
    const { pddGoodsId } = parseParams(ctx, params);
    ctx.body = await getPddProduct(deps.db, pddGoodsId);
  });

  router.delete('/:pddGoodsId', async (ctx) => {
    const { pddGoodsId } = parseParams(ctx, params);
    await softDeletePdd(deps.db, pddGoodsId, auditFor(ctx));
    ctx.body = { goods_id: pddGoodsId, deleted: true };
  });

  router.post('/:pddGoodsId/collect', async (ctx) => {
    const { pddGoodsId } = parseParams(ctx, params);
    const started = await startCollect(deps.db, deps.temporal, pddGoodsId, auditFor(ctx));
    ctx.status = 202;
    ctx.body = started;
  });

  return router;
}
