import { z } from 'zod';

/**
 * What the phone (or the workflow's own gate check) read when a purchase stopped, as data: which
 * kind of stop, and the numbers and words it saw. The English message beside it is for logs and
 * engineers; the operator's sentence is built from these (./stop-facts-zh.ts), never from the
 * English. They travel in the device failure's details, the workflow's status write and the
 * timeline entry it leaves, and the task answer — snake_case like every stored and HTTP shape
 * (docs/api.md "Names") — and are validated wherever one process reads what another wrote.
 */

const cent = z.number().int();
const count = z.number().int().nonnegative();
const text = z.string();

const variants = [
  // domain/purchase/gates.ts
  z.object({
    kind: z.literal('gate1_over_cap'),
    unit_price_cent: cent,
    quantity: count,
    total_cent: cent,
    max_total_price_cent: cent,
  }),
  z.object({ kind: z.literal('panel_total_over_cap'), panel_total_cent: cent, max_total_price_cent: cent }),
  z.object({ kind: z.literal('submit_amount_differs'), submit_amount_cent: cent, panel_total_cent: cent }),
  z.object({ kind: z.literal('submit_amount_over_cap'), submit_amount_cent: cent, max_total_price_cent: cent }),
  /** a price the screen showed but no amount could be read from; `shown` is the text, when there was one */
  z.object({
    kind: z.literal('unreadable'),
    reading: z.enum(['unit_price', 'panel_total', 'submit_amount']),
    shown: text.optional(),
  }),
  /** the quantity as the gates judge it: the number read back, null when none was */
  z.object({ kind: z.literal('quantity_read_back'), read: count.nullable(), wanted: count }),

  // device-worker/pdd/purchase/select-options.ts and read-back.ts: the options
  z.object({ kind: z.literal('dimension_missing'), dimensions: z.array(text), shown: z.array(text) }),
  z.object({ kind: z.literal('option_not_given'), dimensions: z.array(text) }),
  z.object({ kind: z.literal('dimension_not_in_view'), dimension: text }),
  z.object({ kind: z.literal('option_missing'), dimension: text, option: text, shown: z.array(text) }),
  z.object({ kind: z.literal('option_ambiguous'), dimension: text, option: text, count }),
  z.object({ kind: z.literal('option_sold_out'), dimension: text, option: text }),
  z.object({
    kind: z.literal('selection_differs'),
    selection: z.array(text.nullable()),
    summary: text,
    wanted: z.array(text),
  }),

  // device-worker/pdd/purchase/panel-gates.ts: the quantity and the price between the gates
  /** the count the quantity row shows is screen text; null when the row showed none */
  z.object({ kind: z.literal('fresh_quantity_not_one'), shown: text.nullable() }),
  z.object({ kind: z.literal('quantity_after_plus'), plus_taps: count, shown: text.nullable(), wanted: count }),
  z.object({ kind: z.literal('quantity_shown'), shown: text.nullable(), wanted: count }),
  z.object({ kind: z.literal('quantity_row_missing') }),
  z.object({ kind: z.literal('plus_disabled'), at: count, wanted: count }),
  z.object({ kind: z.literal('price_moved_at_one'), now: text, gate1_read: text.nullable() }),
  z.object({ kind: z.literal('panel_total_moved'), now: text, gate2_panel_total_cent: cent }),

  // device-worker/pdd/purchase/final-panel.ts: the submit control
  z.object({ kind: z.literal('submit_control_count'), label: text, count }),
  z.object({ kind: z.literal('submit_control_shape'), label: text, shown: text }),
  z.object({ kind: z.literal('submit_control_disabled') }),

  // activities/admin/purchase/attempt.ts: a popup the phone closed before the final panel
  z.object({ kind: z.literal('interstitial_closed'), interstitial: text }),
] as const;

export const stopFactsSchema = z.discriminatedUnion('kind', variants);

export type StopFacts = z.infer<typeof stopFactsSchema>;
export type StopFactsKind = StopFacts['kind'];

/** Facts another process wrote, or null when they are missing or not a shape this code knows. */
export function parseStopFacts(value: unknown): StopFacts | null {
  if (value === null || value === undefined) return null;
  const parsed = stopFactsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
