import Router from '@koa/router';
import { z } from 'zod';
import { PRODUCT_STATES } from '../../../domain/catalog';
import { hasUnsafeNameChars, UNSAFE_NAME_MESSAGE } from '../../../domain/text';
import { operatorOf } from '../../auth/principal';
import { writeImport } from '../../catalog/import';
import { readImportInThread } from '../../catalog/import-thread';
import { readMultipartFile } from '../../catalog/multipart';
import { linkPddGoods, unlinkPddGoods } from '../../catalog/pdd-link';
import { listShopeeProducts } from '../../catalog/product-list';
import { getShopeeProduct } from '../../catalog/products';
import { addManualSku, fixSku } from '../../catalog/skus';
import { writeTransaction } from '../../db/database';
import type { AppDeps } from '../deps';
import { parseBody, parseParams, parseQuery } from '../validate';
import { auditFor } from './catalog-audit';

const digits = z.string().regex(/^\d{1,30}$/, 'digits only');
const goodsParams = z.object({ goodsId: digits });
const skuParams = z.object({ skuId: digits });
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !hasUnsafeNameChars(s), UNSAFE_NAME_MESSAGE);

const listQuery = z.object({
  q: z.string().max(200).optional(),
  state: z.enum(PRODUCT_STATES).optional(),
  parse_failed: z.enum(['0', '1', 'true', 'false']).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const linkBody = z.object({ url: z.string().trim().min(1).max(4000) }).strict();
const manualSkuBody = z
  .object({
    sku_id: digits,
    color: text(200),
    size: text(200),
    advice: z.string().max(200).nullable().optional(),
    spec_raw: z.string().max(500).optional(),
    sku_code: z.string().max(200).nullable().optional(),
  })
  .strict();
const fixSkuBody = z
  .object({ color: text(200), size: text(200), advice: z.string().max(200).nullable().optional() })
  .strict();

/** 商品: the Shopee catalog (docs/architecture.md §5.2), its import and each product's PDD link. */
export function shopeeRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/shopee' });

  // Validate the whole workbook first, then write everything in one transaction: a rejected
  // file writes nothing.
  router.post('/imports', async (ctx) => {
    operatorOf(ctx);
    const file = await readMultipartFile(ctx, 'file');
    const parsed = await readImportInThread(file.bytes);
    const audit = auditFor(ctx);
    ctx.body = await writeTransaction(deps.db, async (trx) => {
      const result = await writeImport(trx, parsed);
      await audit(trx, {
        action: 'shopee.import',
        target: { kind: 'shopee_import', id: file.filename || '(unnamed)' },
        details: {
          bytes: file.bytes.length,
          products: result.products,
          skus: result.skus,
          failed_rows: result.failed_rows.length,
          manual_kept: result.manual_kept,
        },
      });
      return result;
    });
  });

  router.get('/products', async (ctx) => {
    const q = parseQuery(ctx, listQuery);
    ctx.body = await listShopeeProducts(deps.db, {
      ...q,
      parse_failed: q.parse_failed === '1' || q.parse_failed === 'true',
    });
  });

  router.get('/products/:goodsId', async (ctx) => {
    const { goodsId } = parseParams(ctx, goodsParams);
    ctx.body = await getShopeeProduct(deps.db, goodsId);
  });

  router.put('/products/:goodsId/pdd-link', async (ctx) => {
    const { goodsId } = parseParams(ctx, goodsParams);
    const body = parseBody(ctx, linkBody);
    ctx.body = await linkPddGoods(deps.db, goodsId, body.url, auditFor(ctx));
  });

  router.delete('/products/:goodsId/pdd-link', async (ctx) => {
    const { goodsId } = parseParams(ctx, goodsParams);
    await unlinkPddGoods(deps.db, goodsId, auditFor(ctx));
    ctx.body = { pdd_goods_id: null };
  });

  router.post('/products/:goodsId/skus', async (ctx) => {
    const { goodsId } = parseParams(ctx, goodsParams);
    const body = parseBody(ctx, manualSkuBody);
    ctx.status = 201;
    ctx.body = await addManualSku(deps.db, goodsId, body, auditFor(ctx));
  });

  router.put('/skus/:skuId', async (ctx) => {
    const { skuId } = parseParams(ctx, skuParams);
    const body = parseBody(ctx, fixSkuBody);
    ctx.body = await fixSku(deps.db, skuId, body, auditFor(ctx));
  });

  return router;
}
