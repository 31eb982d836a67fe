import { sql, type Kysely } from 'kysely';

/**
 * When the matched PDD order was placed (UTC), beside its number: the order number alone does
 * not say which of two look-alike orders it was, and the ±5 minute match window is judged on it.
 * Null until an order is matched, and for an order number an operator entered by hand.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `ALTER TABLE order_submissions ADD COLUMN ordered_at TEXT CHECK (ordered_at IS NULL OR ordered_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z')`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE order_submissions DROP COLUMN ordered_at').execute(db);
}
