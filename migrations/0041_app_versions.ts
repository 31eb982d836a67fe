import { sql, type Kysely } from 'kysely';

/**
 * The release gate per PDD app version (docs/api.md §9.2): every version a phone
 * registered with, when a dry run last reached its final panel on it, and whether an operator
 * released it for live purchases. Nothing releases a version by itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_versions')
    .addColumn('app_version', 'text', (c) => c.primaryKey().check(sql`length(app_version) between 1 and 64`))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_dry_run_passed_at', 'text')
    .addColumn('last_dry_run_task_id', 'text')
    .addColumn('released_at', 'text')
    .addColumn('released_by', 'text')
    .addCheckConstraint(
      'app_versions_release_after_dry_run',
      sql`released_at is null or (last_dry_run_passed_at is not null and released_by is not null)`,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_versions').execute();
}
