import { z } from 'zod';

/** The points of a purchase at which the hostile world may strike (sim/phone/SCREENS.md "Moments"). */
export const MOMENTS = ['open', 'panel', 'quantity', 'final_panel', 'after_submit', 'orders'] as const;
export type Moment = (typeof MOMENTS)[number];
export const momentSchema = z.enum(MOMENTS);

/** Full-screen pages the app can show instead of the screen a worker expects. */
export const BUILTIN_PAGES = [
  'login',
  'risk_slider',
  'risk_face',
  'risk_sms',
  'network_error',
  'app_update',
  'sold_out',
  'address_missing',
] as const;
export type BuiltinPage = (typeof BUILTIN_PAGES)[number];
export const builtinPageSchema = z.enum(BUILTIN_PAGES);

export const TEMPLATE_NAMES = [
  'update_prompt',
  'red_packet',
  'cash_gift',
  'subsidy_coupon',
  'free_order',
  'order_success',
  'teen_mode',
  'notification_prompt',
  'float_video',
  'limited_deal_mask',
] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export type OverlayAction = 'dismiss' | 'none' | `navigate:${BuiltinPage | 'home'}`;
const NAVIGATE = new RegExp(`^navigate:(home|${BUILTIN_PAGES.join('|')})$`);
const actionSchema = z
  .string()
  .refine((a) => a === 'dismiss' || a === 'none' || NAVIGATE.test(a), {
    message: `action must be dismiss, none or navigate:<home|${BUILTIN_PAGES.join('|')}>`,
  })
  .transform((a) => a as OverlayAction);

const int = z.number().int();
const rectSchema = z
  .tuple([int, int, int, int])
  .refine(([l, t, r, b]) => l >= 0 && t >= 0 && r <= 1080 && b <= 2376 && l < r && t < b, {
    message: 'bounds are [left, top, right, bottom] inside the 1080x2376 screen, left < right, top < bottom',
  });

const timing = {
  when: momentSchema,
  after_dumps: int.min(0).max(1000).default(0),
  times: int.min(1).max(1000).default(1),
};

const customNodeSchema = z
  .object({
    text: z.string().max(500).default(''),
    resource_id: z.string().max(200).default(''),
    class: z
      .string()
      .regex(/^[A-Za-z_$][A-Za-z0-9_.$]*$/, 'class must be a Java class name')
      .default('android.view.View'),
    content_desc: z.string().max(500).default(''),
    clickable: z.boolean().default(false),
    bounds: rectSchema,
    action: actionSchema.default('none'),
  })
  .strict();

const templateOverlaySchema = z.object({ template: z.enum(TEMPLATE_NAMES), ...timing }).strict();
const customOverlaySchema = z
  .object({
    id: z.string().min(1).max(64),
    bounds: rectSchema,
    nodes: z.array(customNodeSchema).max(200),
    ...timing,
  })
  .strict()
  .superRefine((o, ctx) => {
    // A node outside its overlay would be drawn there but could not be tapped through the overlay.
    const [l, t, r, b] = o.bounds;
    o.nodes.forEach((n, i) => {
      const [nl, nt, nr, nb] = n.bounds;
      if (nl < l || nt < t || nr > r || nb > b)
        ctx.addIssue({
          code: 'custom',
          path: ['nodes', i, 'bounds'],
          message: 'a node lies inside its overlay bounds',
        });
    });
  });

type TemplateOverlay = z.infer<typeof templateOverlaySchema>;
export type CustomOverlay = z.infer<typeof customOverlaySchema>;
export type OverlaySpec = TemplateOverlay | CustomOverlay;

// A plain union would report "invalid input" for a custom overlay with one bad node; picking the
// branch by the `template` key keeps the error on the field that is wrong.
const overlayInput = z.unknown().transform((v, ctx): OverlaySpec => {
  const isTemplate = typeof v === 'object' && v !== null && 'template' in v;
  const r = (isTemplate ? templateOverlaySchema : customOverlaySchema).safeParse(v);
  if (r.success) return r.data;
  for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

export const overlaysBodySchema = z
  .object({ overlays: z.array(overlayInput).max(50) })
  .strict()
  .superRefine((body, ctx) => {
    const ids = body.overlays.map((o) => ('id' in o ? o.id : null)).filter((x): x is string => x !== null);
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup !== undefined) ctx.addIssue({ code: 'custom', path: ['overlays'], message: `overlay id '${dup}' twice` });
  });

export const idStyleSchema = z.enum(['default', 'generic']);
export type IdStyle = z.infer<typeof idStyleSchema>;
