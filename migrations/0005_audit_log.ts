import { sql, type Kysely } from 'kysely';

// Who did what, when, to which target. Append-only by trigger, so neither a bug nor a later
// route can rewrite history through the application.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) =>
      c.notNull().check(sql`actor_kind in ('operator', 'device', 'cli', 'system')`),
    )
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text')
    .addColumn('target_id', 'text')
    .addColumn('details_json', 'text', (c) => c.check(sql`details_json is null or json_valid(details_json)`))
    .addColumn('source_ip', 'text')
    .execute();
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target_kind', 'target_id']).execute();
  await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(
    db,
  );
  await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
