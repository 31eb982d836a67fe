import { z } from 'zod';
import { interstitialSchema, matcherSchema, nonEmpty, PAGE_STOP_CODES } from '../../domain/pdd-overlay';

/**
 * One PDD app version as data (device-worker/pdd/profiles/<version>.json): the texts, classes and
 * geometry real-phone evidence proved for it, the pages that stop a purchase and the interstitials
 * that may be closed. No resource id: the real app names most nodes `…:id/pdd` or nothing, so
 * screens are read by text, class, structure and position (./screens.ts).
 */

// What a page may force and what may close an interstitial are shared with the admin, which
// checks a taught overlay by the same rules (domain/pdd-overlay.ts).
export { PAGE_STOP_CODES, type NodeMatcher, type PageStopCode } from '../../domain/pdd-overlay';

const pageSchema = z
  .object({
    name: nonEmpty,
    code: z.enum(PAGE_STOP_CODES),
    /** every matcher must find a node for the page to be this one */
    signature: z.array(matcherSchema).min(1),
  })
  .strict();

export type { InterstitialData } from '../../domain/pdd-overlay';

const textsSchema = z
  .object({
    loading: nonEmpty,
    offline: nonEmpty,
    entry_label: nonEmpty,
    entry_sibling: nonEmpty,
    mall_enter: nonEmpty,
    sales_prefix: nonEmpty,
    summary_pending: nonEmpty,
    summary_done: nonEmpty,
    quantity_label: nonEmpty,
    plus: nonEmpty,
    minus: nonEmpty,
    submit_label: nonEmpty,
    cashier_title: nonEmpty,
    orders_title: nonEmpty,
    order_unpaid: nonEmpty,
    order_sn_prefix: nonEmpty,
    order_time_prefix: nonEmpty,
    order_amount_prefix: nonEmpty,
    order_count_prefix: nonEmpty,
    order_spec_separator: nonEmpty,
    home_search: nonEmpty,
  })
  .strict();

const ORDER_FIELDS = ['mall', 'status', 'title', 'spec', 'count', 'amount', 'sn', 'time'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];

export const profileFileSchema = z
  .object({
    schema_version: z.literal(1),
    app_version: z.string().regex(/^\d+(\.\d+)+$/, 'must be a version like 8.17.0'),
    package: nonEmpty,
    screen: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).strict(),
    launcher_package: nonEmpty,
    alipay_package: nonEmpty,
    classes: z
      .object({
        text_view: nonEmpty,
        linear_layout: nonEmpty,
        frame_layout: nonEmpty,
        scroll_view: nonEmpty,
        progress_bar: nonEmpty,
        toast: nonEmpty,
      })
      .strict(),
    texts: textsSchema,
    /** the text rows of an order card, top to bottom */
    order_fields: z
      .array(z.enum(ORDER_FIELDS))
      .refine((f) => new Set(f).size === f.length && f.includes('sn'), { message: 'needs sn, each field once' }),
    urls: z
      .object({
        goods: z.string().regex(/^https?:\/\/[^\s]+\{goods_id\}[^\s]*$/, 'must be an http(s) URL with {goods_id}'),
        pending_orders: z.string().regex(/^[a-z]+:\/\/\S+$/, 'must be a URL'),
      })
      .strict(),
    order_time_offset_minutes: z.number().int().min(-720).max(840),
    key_back: z.number().int().positive(),
    reveal: z
      .object({
        lane_xs: z.array(z.number().int().nonnegative()).min(1),
        start_above_bottom: z.number().int().positive(),
        distance: z.number().int().positive(),
        duration_ms: z.number().int().positive(),
      })
      .strict(),
    pages: z.array(pageSchema),
    max_interstitials_per_purchase: z.number().int().min(0).max(3),
    interstitials: z.array(interstitialSchema),
  })
  .strict();
