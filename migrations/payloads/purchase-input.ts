/**
 * Payload migration: the purchase workflow's input, and the phone's target built from it, named
 * the total-price cap `capCent` until the cap took one name everywhere (`maxTotalPriceCent`,
 * `max_total_price_cent` in data). Workflows started before carry the old name in their recorded
 * input, and an activity scheduled before a deploy receives its recorded target after it, so the
 * workflow's entry and every activity that takes the target read it through here
 * (docs/versioning.md "Renaming a field of a workflow input").
 *
 * Pure, deterministic and free of our imports: it runs inside the workflow bundle as well as in
 * the workers. Like the SQL migrations beside it, it keeps the old name so no other code has to.
 */

/** `T` as recorded before the rename: `capCent` where `T` has `maxTotalPriceCent`. */
export type RecordedBeforeCapName<T extends { maxTotalPriceCent: number }> = Omit<T, 'maxTotalPriceCent'> & {
  capCent: number;
};

/**
 * The input (or target) with the cap under its current name. An input that already has it comes
 * back as it is; one recorded with `capCent` comes back with the same value as `maxTotalPriceCent`
 * and without `capCent`.
 */
export function upgradePurchaseInput<T extends { maxTotalPriceCent: number }>(
  recorded: T | RecordedBeforeCapName<T>,
): T {
  const fields = recorded as Record<string, unknown>;
  if (fields.capCent === undefined) return recorded as T;
  const { capCent, ...rest } = fields;
  return { ...rest, maxTotalPriceCent: rest.maxTotalPriceCent ?? capCent } as unknown as T;
}
