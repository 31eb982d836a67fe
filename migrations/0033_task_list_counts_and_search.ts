import { sql, type Kysely } from 'kysely';

/**
 * Two things the task list (admin/purchase/queries.ts) needs at years of history:
 *
 * - `task_counts`: how many tasks are in each status, kept by triggers in the same transaction
 *   as every insert, delete and status change of `tasks`. The list's 「共 N 条」 `total` of an
 *   unfiltered or status-filtered page is then a read of a few rows instead of a COUNT over
 *   every task on every page request (which grows with the rows kept: docs/PERFORMANCE.md).
 * - `tasks_search`: an FTS5 index with the trigram tokenizer over the columns the list's search
 *   reads (task_id, title, search_text, pdd_goods_id, order_no), kept by triggers. A trigram
 *   phrase finds any substring of three or more characters, so a search for a rare text reads
 *   its few candidates instead of scanning the list. It is only a pre-filter: the query still
 *   applies its literal `LIKE` to each candidate, so what matches does not change. It is an
 *   external-content index on `tasks` keyed by rowid; after a VACUUM (which may renumber the
 *   rowids of a table without an INTEGER PRIMARY KEY) rebuild it with
 *   `INSERT INTO tasks_search(tasks_search) VALUES ('rebuild')`.
 */
const SEARCHED = ['task_id', 'title', 'search_text', 'pdd_goods_id', 'order_no'] as const;
const cols = SEARCHED.join(', ');
const of = (row: 'new' | 'old') => SEARCHED.map((c) => `${row}.${c}`).join(', ');

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('task_counts')
    .addColumn('status', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull().check(sql`n >= 0`))
    .execute();
  await sql`INSERT INTO task_counts (status, n) SELECT status, count(*) FROM tasks GROUP BY status`.execute(db);
  await sql
    .raw(
      `CREATE TRIGGER trg_task_counts_insert AFTER INSERT ON tasks BEGIN
         INSERT INTO task_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
       END`,
    )
    .execute(db);
  await sql.raw(`CREATE TRIGGER trg_task_counts_delete AFTER DELETE ON tasks BEGIN UPDATE task_counts SET n = n - 1 WHERE status = old.status; END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER trg_task_counts_status AFTER UPDATE OF status ON tasks WHEN old.status IS NOT new.status BEGIN
         UPDATE task_counts SET n = n - 1 WHERE status = old.status;
         INSERT INTO task_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
       END`,
    )
    .execute(db);

  await sql.raw(`CREATE VIRTUAL TABLE tasks_search USING fts5(${cols}, content='tasks', content_rowid='rowid', tokenize='trigram')`).execute(db);
  await sql.raw(`INSERT INTO tasks_search (tasks_search) VALUES ('rebuild')`).execute(db);
  await sql.raw(`CREATE TRIGGER trg_tasks_search_insert AFTER INSERT ON tasks BEGIN INSERT INTO tasks_search (rowid, ${cols}) VALUES (new.rowid, ${of('new')}); END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER trg_tasks_search_delete AFTER DELETE ON tasks BEGIN INSERT INTO tasks_search (tasks_search, rowid, ${cols}) VALUES ('delete', old.rowid, ${of('old')}); END`)
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
  for (const t of ['trg_tasks_search_update', 'trg_tasks_search_delete', 'trg_tasks_search_insert', 'trg_task_counts_status', 'trg_task_counts_delete', 'trg_task_counts_insert']) {
    await sql.raw(`DROP TRIGGER ${t}`).execute(db);
  }
  await sql.raw('DROP TABLE tasks_search').execute(db);
  await db.schema.dropTable('task_counts').execute();
}
