import { sql, type Kysely } from 'kysely';

/**
 * Two things the task list (admin/purchase/queries.ts) needs at years of history:
 *
 * - `task_counts`: how many listed tasks (purchases, not hidden) are in each status, kept by
 *   triggers in the same transaction as every insert, delete and change of `tasks`. The list's 「共 N 条」 `total` of an
 *   unfiltered or status-filtered page is then a read of a few rows instead of a COUNT over
 *   every task on every page request (which grows with the rows kept: docs/PERFORMANCE.md).
 * - `tasks_search`: an FTS5 index with the trigram tokenizer over the columns the list's search
 *   reads (task_id, title, search_text, pdd_goods_id, order_no, pdd_order_no), kept by triggers. A trigram
 *   phrase finds any substring of three or more characters, so a search for a rare text reads
 *   its few candidates instead of scanning the list. It is only a pre-filter: the query still
 *   applies its literal `LIKE` to each candidate, so what matches does not change. It is an
 *   external-content index on `tasks` keyed by rowid; after a VACUUM (which may renumber the
 *   rowids of a table without an INTEGER PRIMARY KEY) rebuild it with
 *   `INSERT INTO tasks_search(tasks_search) VALUES ('rebuild')`.
 */
const SEARCHED = ['task_id', 'title', 'search_text', 'pdd_goods_id', 'order_no', 'pdd_order_no'] as const;
const cols = SEARCHED.join(', ');
/** The rows the task list shows (admin/purchase/queries.ts): purchases an operator has not hidden. */
const LISTED = (row: string) => `${row}.task_type = 'purchase' AND ${row}.removed_at IS NULL`;
const of = (row: 'new' | 'old') => SEARCHED.map((c) => `${row}.${c}`).join(', ');

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('task_counts')
    .addColumn('status', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull().check(sql`n >= 0`))
    .execute();
  await sql`INSERT INTO task_counts (status, n) SELECT status, count(*) FROM tasks WHERE ${sql.raw(LISTED('tasks'))} GROUP BY status`.execute(
    db,
  );
  const plusOne = `INSERT INTO task_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;`;
  const minusOne = `UPDATE task_counts SET n = n - 1 WHERE status = old.status;`;
  await sql
    .raw(`CREATE TRIGGER trg_task_counts_insert AFTER INSERT ON tasks WHEN ${LISTED('new')} BEGIN ${plusOne} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER trg_task_counts_delete AFTER DELETE ON tasks WHEN ${LISTED('old')} BEGIN ${minusOne} END`)
    .execute(db);
  // a status change, a hide or an unhide moves a task between (or out of, into) the counts
  await sql
    .raw(
      `CREATE TRIGGER trg_task_counts_leave AFTER UPDATE OF status, removed_at, task_type ON tasks WHEN ${LISTED('old')} BEGIN ${minusOne} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER trg_task_counts_enter AFTER UPDATE OF status, removed_at, task_type ON tasks WHEN ${LISTED('new')} BEGIN ${plusOne} END`,
    )
    .execute(db);

  await sql
    .raw(
      `CREATE VIRTUAL TABLE tasks_search USING fts5(${cols}, content='tasks', content_rowid='rowid', tokenize='trigram')`,
    )
    .execute(db);
  await sql.raw(`INSERT INTO tasks_search (tasks_search) VALUES ('rebuild')`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER trg_tasks_search_insert AFTER INSERT ON tasks BEGIN INSERT INTO tasks_search (rowid, ${cols}) VALUES (new.rowid, ${of('new')}); END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER trg_tasks_search_delete AFTER DELETE ON tasks BEGIN INSERT INTO tasks_search (tasks_search, rowid, ${cols}) VALUES ('delete', old.rowid, ${of('old')}); END`,
    )
    .execute(db);
  // only when a searched column is written: a status change (most updates) leaves the index alone
  await sql
    .raw(
      `CREATE TRIGGER trg_tasks_search_update AFTER UPDATE OF ${cols} ON tasks BEGIN
         INSERT INTO tasks_search (tasks_search, rowid, ${cols}) VALUES ('delete', old.rowid, ${of('old')});
         INSERT INTO tasks_search (rowid, ${cols}) VALUES (new.rowid, ${of('new')});
       END`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'trg_tasks_search_update',
    'trg_tasks_search_delete',
    'trg_tasks_search_insert',
    'trg_task_counts_enter',
    'trg_task_counts_leave',
    'trg_task_counts_delete',
    'trg_task_counts_insert',
  ]) {
    await sql.raw(`DROP TRIGGER ${t}`).execute(db);
  }
  await sql.raw('DROP TABLE tasks_search').execute(db);
  await db.schema.dropTable('task_counts').execute();
}
