import type { Kysely } from 'kysely';

/**
 * The task list filtered by status is read newest first, page by page (admin/purchase/queries.ts,
 * keyset on updated_at, task_id). With this index a status page is an index range in list order;
 * without it SQLite collected every task of that status and sorted them for each page, which
 * grows with the years of history kept (bench/tasks-list.ts, docs/PERFORMANCE.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('idx_tasks_status_list')
    .on('tasks')
    .columns(['status', 'updated_at desc', 'task_id desc'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('idx_tasks_status_list').execute();
}
