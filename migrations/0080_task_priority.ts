import { sql, type Kysely } from 'kysely';

/**
 * Which waiting task a free phone takes first (domain/purchase/priority.ts): higher first, 0 for
 * every task so far. Collect tasks carry the column too and never use it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw('ALTER TABLE tasks ADD COLUMN priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN -2 AND 2)')
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE tasks DROP COLUMN priority').execute(db);
}
