import { sql, type Kysely } from 'kysely';

// Non-secret settings only (docs/architecture.md §5.1): tokens, passwords and cookies never go here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_settings')
    .addColumn('setting_key', 'text', (c) => c.primaryKey())
    .addColumn('value_json', 'text', (c) => c.notNull().check(sql`json_valid(value_json)`))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_settings').execute();
}
