import Router from '@koa/router';
import { z } from 'zod';
import { operatorOf } from '../../auth/principal';
import { clearMapping, mappingBoard, setMapping } from '../../catalog/mappings';
import type { AppDeps } from '../deps';
import { parseBody, parseParams, parseQuery } from '../validate';
import { auditFor } from './catalog-audit';

const digits = z.string().regex(/^\d{1,30}$/, 'digits only');
const skuParams = z.object({ skuId: digits });
const boardQuery = z.object({ goods_id: digits });
const setBody = z.object({ pdd_options: z.record(z.string().min(1).max(100), z.string().min(1).max(200)) }).strict();

/** SKU mapping (docs/architecture.md §5.2): always under the Shopee product's current PDD goods. */
export function mappingRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/mappings' });

  router.get('/', async (ctx) => {
    ctx.body = await mappingBoard(deps.db, parseQuery(ctx, boardQuery).goods_id);
  });

  router.put('/:skuId', async (ctx) => {
    const { skuId } = parseParams(ctx, skuParams);
    const body = parseBody(ctx, setBody);
    ctx.body = await setMapping(deps.db, skuId, body.pdd_options, operatorOf(ctx).username, auditFor(ctx));
  });

  router.delete('/:skuId', async (ctx) => {
    const { skuId } = parseParams(ctx, skuParams);
    ctx.body = await clearMapping(deps.db, skuId, auditFor(ctx));
  });

  return router;
}
