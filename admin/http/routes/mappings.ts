import Router from '@koa/router';
import { z } from 'zod';
import { operatorOf } from '../../auth/principal';
import { applyAutoMappings, autoMappingPreview } from '../../catalog/auto-mappings';
import { clearMapping, mappingBoard, setMapping } from '../../catalog/mappings';
import type { AppDeps } from '../deps';
import { parseBody, parseParams, parseQuery } from '../validate';
import { auditFor } from './catalog-audit';

const digits = z.string().regex(/^\d{1,30}$/, 'digits only');
const skuParams = z.object({ skuId: digits });
const goodsParams = z.object({ goodsId: digits });
const boardQuery = z.object({ goods_id: digits });
const setBody = z.object({ pdd_options: z.record(z.string().min(1).max(100), z.string().min(1).max(200)) }).strict();
/** The previewed list as the operator confirmed it (a product has at most a few hundred SKUs). */
const autoBody = z
  .object({
    pdd_goods_id: digits,
    mappings: z
      .array(z.object({ sku_id: digits, pdd_option_key: z.string().min(1).max(4000) }).strict())
      .min(1)
      .max(2000)
      .refine((list) => new Set(list.map((m) => m.sku_id)).size === list.length, 'each sku_id once'),
  })
  .strict();

/**
 * SKU mapping (docs/architecture.md §5.2): always under the Shopee product's current PDD goods.
 * 按文字一致全部映射 lives under the product it maps, hence the full paths.
 */
export function mappingRoutes(deps: AppDeps): Router {
  const router = new Router();

  router.get('/api/mappings', async (ctx) => {
    ctx.body = await mappingBoard(deps.db, parseQuery(ctx, boardQuery).goods_id);
  });

  router.put('/api/mappings/:skuId', async (ctx) => {
    const { skuId } = parseParams(ctx, skuParams);
    const body = parseBody(ctx, setBody);
    ctx.body = await setMapping(deps.db, skuId, body.pdd_options, operatorOf(ctx).username, auditFor(ctx));
  });

  router.delete('/api/mappings/:skuId', async (ctx) => {
    const { skuId } = parseParams(ctx, skuParams);
    ctx.body = await clearMapping(deps.db, skuId, auditFor(ctx));
  });

  router.get('/api/shopee/products/:goodsId/auto-mappings', async (ctx) => {
    ctx.body = await autoMappingPreview(deps.db, parseParams(ctx, goodsParams).goodsId);
  });

  router.post('/api/shopee/products/:goodsId/auto-mappings', async (ctx) => {
    const { goodsId } = parseParams(ctx, goodsParams);
    const body = parseBody(ctx, autoBody);
    ctx.body = await applyAutoMappings(deps.db, goodsId, body, operatorOf(ctx).username, auditFor(ctx));
  });

  return router;
}
