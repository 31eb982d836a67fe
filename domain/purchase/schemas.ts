import { z } from 'zod';
import { parsePddGoodsId } from '../pdd-url';
import { hasUnsafeNameChars, UNSAFE_NAME_MESSAGE } from '../text';
import { TASK_PRIORITY } from './priority';
import { EXECUTION_MODES } from './status';

const cent = z.number().int().positive();
/** dimension name as the PDD panel shows it → option text; any number of dimensions */
const purchaseOptionsSchema = z
  .record(z.string().trim().min(1, 'dimension name is empty'), z.string().trim().min(1, 'option value is empty'))
  .refine((o) => Object.keys(o).length > 0, 'give an option for every dimension');

const draftFields = {
  pdd_goods_url: z
    .string()
    .trim()
    .min(1)
    .refine((url) => parsePddGoodsId(url).ok, 'no single goods_id in the URL: paste the full PDD goods link'),
  pdd_options: purchaseOptionsSchema,
  quantity: z.number().int().positive(),
  max_total_price_cent: cent,
  execution_mode: z.enum(EXECUTION_MODES),
  title: z
    .string()
    .trim()
    .max(200)
    .refine((s) => !hasUnsafeNameChars(s), `title ${UNSAFE_NAME_MESSAGE}`),
  priority: z.number().int().min(TASK_PRIORITY.min).max(TASK_PRIORITY.max),
};

/** `POST /api/tasks` (docs/api.md). `execution_mode` is dry_run unless live is given explicitly. */
export const createPurchaseDraftSchema = z
  .object({
    type: z.literal('purchase'),
    pdd_goods_url: draftFields.pdd_goods_url,
    pdd_options: draftFields.pdd_options,
    quantity: draftFields.quantity,
    max_total_price_cent: draftFields.max_total_price_cent,
    execution_mode: draftFields.execution_mode.default('dry_run'),
    title: draftFields.title.optional(),
    // 0 (TASK_PRIORITY.default) when not given: admin/purchase/drafts.ts
    priority: draftFields.priority.optional(),
  })
  .strict();
export type CreatePurchaseDraft = z.infer<typeof createPurchaseDraftSchema>;

/**
 * `PATCH /api/tasks/:taskId`: the version the operator saw and the fields to change, each with
 * the create form's rules. Options are replaced as a whole, never merged: a dimension dropped
 * in the form must not survive from the old version.
 */
export const editPurchaseDraftSchema = z
  .object({
    version: z.number().int().positive(),
    pdd_goods_url: draftFields.pdd_goods_url.optional(),
    pdd_options: draftFields.pdd_options.optional(),
    quantity: draftFields.quantity.optional(),
    max_total_price_cent: draftFields.max_total_price_cent.optional(),
    execution_mode: draftFields.execution_mode.optional(),
    title: draftFields.title.optional(),
    priority: draftFields.priority.optional(),
  })
  .strict();
export type EditPurchaseDraft = z.infer<typeof editPurchaseDraftSchema>;

const utc = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
const optionsObject = z.record(z.string(), z.string());

/**
 * The `purchase` object of a task's result, validated before it is stored. Confirmed options,
 * quantity and amounts come from the final confirmation recorded before the tap.
 */
export const purchaseResultSchema = z
  .object({
    mode: z.enum(EXECUTION_MODES),
    // `max_price_cent`: the authorised cap (`max_total_price_cent`) under the name this shape gave it
    requested: z
      .object({ options: optionsObject, quantity: z.number().int().positive(), max_price_cent: cent })
      .passthrough(),
    confirmed: z
      .object({
        options: optionsObject,
        quantity: z.number().int().positive(),
        unit_price_cent: z.number().int().nonnegative().nullable(),
        total_price_cent: z.number().int().nonnegative().nullable(),
      })
      .passthrough()
      .nullable(),
    confirmation_reached: z.boolean(),
    order_submitted: z.boolean(),
    payment_attempted: z.literal(false),
    payment_status: z.enum(['unpaid', 'paid']).nullable(),
    /** the PDD order number */
    pdd_order_no: z.string().min(1).nullable(),
    ordered_at: utc.nullable(),
    ordered_at_raw: z.string().nullable(),
    match_status: z.enum(['not_submitted', 'matched', 'unmatched', 'pending', 'manual']),
  })
  .passthrough()
  .superRefine((p, ctx) => {
    if (p.mode === 'dry_run' && (p.order_submitted || p.match_status !== 'not_submitted')) {
      ctx.addIssue({
        code: 'custom',
        message: 'a dry run never submits: order_submitted=false and match_status=not_submitted',
      });
    }
    if (p.match_status === 'matched' && (p.pdd_order_no === null || p.payment_status === null)) {
      ctx.addIssue({ code: 'custom', message: 'a matched order needs pdd_order_no and payment_status' });
    }
  });
export type PurchaseResult = z.infer<typeof purchaseResultSchema>;
