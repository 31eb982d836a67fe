import { sql, type Kysely } from 'kysely';

/**
 * `removed_at`: an operator hid a finished purchase task from the list (POST /api/tasks/hide).
 * A soft delete: the row, its authorizations, attempts and evidence stay, and 显示已隐藏 shows
 * it again. The list reads purchase rows only (collect runs live on the PDD goods page), so its
 * index leads with the type and keeps hidden rows out of the default view's range.
 */
const UTC_OR_NULL = (col: string) =>
  sql.raw(
    `(${col} IS NULL OR ${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z')`,
  );

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE tasks ADD COLUMN removed_at TEXT CHECK ${UTC_OR_NULL('removed_at')}`.execute(db);
  await db.schema
    .createIndex('idx_tasks_visible_list')
    .on('tasks')
    .columns(['task_type', 'updated_at desc', 'task_id desc'])
    .where(sql.ref('removed_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('idx_tasks_visible_list').execute();
  await sql.raw('ALTER TABLE tasks DROP COLUMN removed_at').execute(db);
}
