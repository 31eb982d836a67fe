import { z } from 'zod';

/**
 * `skus_json` (docs/architecture.md §4.1): what a phone collected for one PDD goods, stored by the admin
 * as is. Roots carry `schema_version`; unknown fields are kept (`.passthrough()`), because a
 * newer device worker may send fields an older admin does not know yet (docs/architecture.md §6).
 */
const utc = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'UTC YYYY-MM-DDTHH:MM:SSZ');
const cent = z.number().int().nonnegative();
const optionsSchema = z.record(z.string().min(1), z.string().min(1));

const collectedSkuSchema = z
  .object({
    /** dimension key → option text, in any number of dimensions */
    options: optionsSchema,
    /** what is paid (coupon price when shown); null when unreadable — never 0 */
    price_cent: cent.nullable(),
    list_price_cent: cent.nullable().optional(),
    raw_price: z.string().nullable(),
    available: z.boolean(),
    /** the full combination that was selected when the price was read ({} when none) */
    price_observed_at: optionsSchema,
    /**
     * the price was carried over from another combination of the same colour, not read on this
     * one (`isInferredPrice`); absent from older collects, where `price_observed_at` still says it
     */
    price_inferred: z.boolean().optional(),
  })
  .passthrough();

/**
 * Sales and review figures of the goods page, kept as the text shown ("已拼10万+件"): the app
 * rounds them ("10万+"), so a number would claim a precision nobody read. Null when not shown.
 */
const goodsMetricsSchema = z
  .object({
    sales_text: z.string().nullable(),
  })
  .passthrough();

export const skusJsonSchema = z
  .object({
    schema_version: z.literal(1),
    goods_id: z.string().regex(/^\d+$/),
    title: z.string(),
    shop_name: z.string().nullable(),
    price_granularity: z.enum(['color', 'sku']),
    captured_at: utc,
    dimensions: z.array(z.object({ key: z.string().min(1), name: z.string().min(1) }).passthrough()),
    skus: z.array(collectedSkuSchema),
    /** the goods' own figures as the goods page shows them; absent from older collects */
    metrics: goodsMetricsSchema.optional(),
  })
  .passthrough();

export type CollectedSku = z.infer<typeof collectedSkuSchema>;
export type SkusJson = z.infer<typeof skusJsonSchema>;

/** A price is measured only on the row whose options equal what was selected when read. */
export function isMeasuredPrice(sku: Pick<CollectedSku, 'options' | 'price_cent' | 'price_observed_at'>): boolean {
  const observed = Object.entries(sku.price_observed_at);
  return (
    sku.price_cent !== null &&
    observed.length === Object.keys(sku.options).length &&
    observed.every(([k, v]) => sku.options[k] === v)
  );
}

/**
 * A price carried over from the combination that was selected when it was read (PDD prices by
 * colour): a cap pre-filled from it is a guess and says so (admin/purchase/warnings.ts).
 */
export function isInferredPrice(sku: Pick<CollectedSku, 'options' | 'price_cent' | 'price_observed_at'>): boolean {
  return sku.price_cent !== null && !isMeasuredPrice(sku);
}
