import { sql, type Kysely } from 'kysely';

/**
 * `task_list_version`: one counter that every change of `tasks` and every change of a phone's
 * name raises, in the same transaction (triggers). The task list (admin/purchase/list-cache.ts)
 * answers a page again from memory while the counter has not moved — operators' screens poll
 * that list every few seconds, and during a batch the admin spent most of a request reading it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('task_list_version')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO task_list_version (id, n) VALUES (1, 0)`.execute(db);
  const raise = `UPDATE task_list_version SET n = n + 1 WHERE id = 1;`;
  for (const event of ['INSERT', 'UPDATE', 'DELETE'])
    await sql
      .raw(`CREATE TRIGGER trg_task_list_version_${event.toLowerCase()} AFTER ${event} ON tasks BEGIN ${raise} END`)
      .execute(db);
  // a list row shows its phone by name
  await sql
    .raw(
      `CREATE TRIGGER trg_task_list_version_device_name AFTER UPDATE OF display_name ON device_credentials BEGIN ${raise} END`,
    )
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER trg_task_list_version_device_gone AFTER DELETE ON device_credentials BEGIN ${raise} END`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['insert', 'update', 'delete', 'device_name', 'device_gone'])
    await sql.raw(`DROP TRIGGER trg_task_list_version_${t}`).execute(db);
  await db.schema.dropTable('task_list_version').execute();
}
