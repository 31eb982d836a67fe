import { z } from 'zod';
import { builtinPageSchema, idStyleSchema, momentSchema } from './app/hostile/schema';

export const latencyProfileSchema = z.enum(['zero', 'realistic']);
export type LatencyProfile = z.infer<typeof latencyProfileSchema>;

const submitOutcomeSchema = z.enum(['created', 'created_then_hang', 'not_created', 'payment_handoff', 'captcha']);

export const faultsSchema = z
  .object({
    latency: latencyProfileSchema.optional(),
    app_version: z
      .string()
      .regex(/^\d+(\.\d+)*$/, 'app_version must look like 8.17.0')
      .optional(),
    /** the handset's own serial (`getprop ro.serialno`), when it is not the ADB serial (a Wi-Fi `ip:port`) */
    hardware_serial: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'hardware_serial must be a plain serial')
      .optional(),
    /** the Android API level `getprop ro.build.version.sdk` says (33 unless set): below 26 no agent runs */
    android_sdk: z.number().int().min(16).max(40).optional(),
    disconnect_after_commands: z.number().int().nonnegative().optional(),
    stale_dump_rate: z.number().min(0).max(1).optional(),
    captcha_on: z.enum(['open', 'panel', 'submit']).optional(),
    price_change: z
      .object({
        goods_id: z.string().regex(/^[0-9]+$/),
        after: z.enum(['gate1', 'gate2']),
        price_cent: z.number().int().positive(),
        tier_totals_cent: z.record(z.string().regex(/^[1-9][0-9]*$/), z.number().int().positive()).optional(),
        after_full_dumps: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    submit_outcome: submitOutcomeSchema.optional(),
    duplicate_submit_control: z.boolean().optional(),
    loading_dumps: z.number().int().min(0).max(10).optional(),
    seed: z.number().int().optional(),
    page_on: z.partialRecord(momentSchema, builtinPageSchema).optional(),
    page_times: z.number().int().min(1).max(1000).optional(),
    id_style: idStyleSchema.optional(),
    /** screens (names as `GET /devices` reports them) whose dump never gets the idle state; true: every app screen */
    never_idle: z.union([z.boolean(), z.array(z.string().regex(/^[a-z0-9_]+$/)).min(1)]).optional(),
    /** the UiAutomator2 server dies and `am instrument` of it crashes (sim/phone/agent/) */
    no_agent: z.boolean().optional(),
  })
  .strict();

export type Faults = z.infer<typeof faultsSchema>;
