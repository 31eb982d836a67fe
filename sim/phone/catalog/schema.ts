import { z } from 'zod';

const cent = z.number().int().nonnegative();

const skuSchema = z.object({
  options: z.array(z.string().min(1)).min(1),
  price_cent: cent,
  list_price_cent: cent.optional(),
  coupon: z.boolean().optional(),
  stock: z.number().int().nonnegative(),
  tier_totals_cent: z.record(z.string().regex(/^[1-9][0-9]*$/), cent).optional(),
});

const goodsSchema = z
  .object({
    goods_id: z.string().regex(/^[0-9]+$/, 'goods_id must be digits'),
    title: z.string().min(1),
    shop_name: z.string(),
    status: z.enum(['on_sale', 'delisted']),
    dimensions: z.array(z.object({ name: z.string().min(1), values: z.array(z.string().min(1)).min(1) })).min(1),
    skus: z.array(skuSchema),
    /** a running countdown on the goods page and its spec panel: with `realistic` they never go idle (SCREENS.md) */
    countdown: z.boolean().optional(),
  })
  .superRefine((g, ctx) => {
    g.skus.forEach((sku, i) => {
      if (sku.options.length !== g.dimensions.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['skus', i, 'options'],
          message: `expected ${g.dimensions.length} options`,
        });
        return;
      }
      sku.options.forEach((v, d) => {
        if (!g.dimensions[d]?.values.includes(v)) {
          ctx.addIssue({
            code: 'custom',
            path: ['skus', i, 'options', d],
            message: `"${v}" is not a value of dimension ${d}`,
          });
        }
      });
    });
  });

export const catalogSchema = z
  .object({ schema_version: z.literal(1), goods: z.array(goodsSchema) })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.goods.forEach((g, i) => {
      if (seen.has(g.goods_id))
        ctx.addIssue({ code: 'custom', path: ['goods', i, 'goods_id'], message: 'duplicate goods_id' });
      seen.add(g.goods_id);
    });
  });

export type Sku = z.infer<typeof skuSchema>;
export type Goods = z.infer<typeof goodsSchema>;
export type Catalog = z.infer<typeof catalogSchema>;
