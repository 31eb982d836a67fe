import { z } from 'zod';

/**
 * One PDD app version as data (device-worker/pdd/profiles/<version>.json): the texts, classes and
 * geometry real-phone evidence proved for it, the pages that stop a purchase and the interstitials
 * that may be closed. No resource id: the real app names most nodes `…:id/pdd` or nothing, so
 * screens are read by text, class, structure and position (./screens.ts).
 */

/** The stops a page of the app can force: each is its own reason (domain/purchase/reasons.ts). */
export const PAGE_STOP_CODES = [
  'LOGIN_REQUIRED',
  'CAPTCHA_REQUIRED',
  'RISK_FACE',
  'RISK_SMS',
  'NETWORK_ERROR',
  'APP_UPDATE_PROMPT',
  'SOLD_OUT',
  'ADDRESS_MISSING',
] as const;
export type PageStopCode = (typeof PAGE_STOP_CODES)[number];

/**
 * Words of controls that accept, navigate or pay. An interstitial's close control may contain
 * none of them: a profile that names 领取 / 去使用 / 立即更新 / 去支付 as a close control is refused
 * at start, whatever else it says.
 */
const NEVER_CLOSE_WORDS: readonly string[] = [
  '领取',
  '使用',
  '更新',
  '升级',
  '支付',
  '付款',
  '购买',
  '抢购',
  '下单',
  '确定',
  '确认',
  '同意',
  '允许',
  '开启',
  '立即',
  '去',
  '登录',
  '验证',
];

const nonEmpty = z.string().min(1, 'must not be empty');

/**
 * One node by exact text or content-desc (or a text prefix), optionally of one class — or, for a
 * control the app draws without any text (an × image), by its class and exact bounds with no text
 * and no content-desc at all.
 */
const matcherSchema = z
  .object({
    text: nonEmpty.optional(),
    text_prefix: nonEmpty.optional(),
    content_desc: nonEmpty.optional(),
    class: nonEmpty.optional(),
    bounds: z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]).optional(),
  })
  .strict()
  .refine(
    (m) =>
      m.text !== undefined ||
      m.text_prefix !== undefined ||
      m.content_desc !== undefined ||
      (m.class !== undefined && m.bounds !== undefined),
    { message: 'needs text, text_prefix or content_desc, or class and bounds' },
  );
export type NodeMatcher = z.infer<typeof matcherSchema>;

const closeSchema = matcherSchema.refine(
  (m) => !NEVER_CLOSE_WORDS.some((w) => [m.text, m.text_prefix, m.content_desc].some((t) => t?.includes(w))),
  { message: `a close control must not accept, navigate or pay (no ${NEVER_CLOSE_WORDS.join(' ')})` },
);

const pageSchema = z
  .object({
    name: nonEmpty,
    code: z.enum(PAGE_STOP_CODES),
    /** every matcher must find a node for the page to be this one */
    signature: z.array(matcherSchema).min(1),
  })
  .strict();

const interstitialSchema = z
  .object({
    name: nonEmpty,
    signature: z.array(matcherSchema).min(1),
    /** the ONE control that closes it, nothing else */
    close: closeSchema,
    /** the stop when it cannot be closed (default UNKNOWN_OVERLAY) */
    stop_code: z.enum(PAGE_STOP_CODES).optional(),
  })
  .strict();
export type InterstitialData = z.infer<typeof interstitialSchema>;

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
