import { z } from 'zod';

/**
 * The rules of a PDD app popup the phones may close by themselves: how a node is found, which
 * control may close it, and the pages that stop a purchase. The device worker's page profiles
 * (device-worker/pdd/profiles/<version>.json) are checked with them at start, and the admin checks
 * an overlay a person taught from the live screen with the same ones before any phone sees it.
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

export const nonEmpty = z.string().min(1, 'must not be empty');

/**
 * One node by exact text or content-desc (or a text prefix), optionally of one class — or, for a
 * control the app draws without any text (an × image), by its class and exact bounds with no text
 * and no content-desc at all.
 */
export const matcherSchema = z
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

export const interstitialSchema = z
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

/** A taught popup as the admin lists it: waiting for review until `reviewed_at` is set, then every phone of that version closes it. */
export interface TaughtOverlayView {
  id: number;
  app_version: string;
  name: string;
  /** the entry as the phones use it: its name is `taught_<name>` */
  entry: InterstitialData;
  taught_by: string;
  taught_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
}
