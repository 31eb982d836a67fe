import { sql, type Kysely } from 'kysely';

/**
 * One name for the total-price cap: `order_authorizations.total_price_cap_cent` becomes
 * `max_total_price_cent`, as on `tasks` and in every answer (docs/api.md "Names"). SQLite's
 * RENAME COLUMN rewrites the column's CHECK (`> 0`) with it; no index, view or trigger names it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw('ALTER TABLE order_authorizations RENAME COLUMN total_price_cap_cent TO max_total_price_cent')
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw('ALTER TABLE order_authorizations RENAME COLUMN max_total_price_cent TO total_price_cap_cent')
    .execute(db);
}
