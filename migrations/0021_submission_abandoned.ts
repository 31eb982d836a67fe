import { sql, type Kysely } from 'kysely';

/**
 * A fence whose answer never reached the workflow (admin killed at that instant) leaves its row;
 * the workflow then never calls submitOnce, so nothing was tapped. `abandoned_at` records that,
 * so the row cannot be read as a submission that happened. The row stays: its UNIQUE
 * authorization_id keeps blocking any other submission under that authorization.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `ALTER TABLE order_submissions ADD COLUMN abandoned_at TEXT CHECK (abandoned_at IS NULL OR abandoned_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z')`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE order_submissions DROP COLUMN abandoned_at').execute(db);
}
