import { sql, type Kysely } from 'kysely';

/**
 * One word, one meaning: `order_no` meant the 顺运宝 order number on `tasks` and `syb_orders`
 * but the PDD order number on `order_submissions`. Each column now says which: the 顺运宝 number
 * is `syb_order_no`, the PDD one `pdd_order_no` (docs/architecture.md §5.1).
 *
 * SQLite's RENAME COLUMN rewrites the indexes and triggers that name a column, but not the
 * columns of the FTS5 index `tasks_search` (0036): an external-content index reads its content
 * table by its own column names, so it is dropped and built again over the new names, with its
 * triggers. The `task_counts` triggers name no renamed column and stay.
 */
const searched = (orderCol: string) => ['task_id', 'title', 'search_text', 'pdd_goods_id', orderCol, 'pdd_order_no'];
const SEARCH_TRIGGERS = ['trg_tasks_search_update', 'trg_tasks_search_delete', 'trg_tasks_search_insert'];

async function dropSearch(db: Kysely<unknown>): Promise<void> {
  for (const t of SEARCH_TRIGGERS) await sql.raw(`DROP TRIGGER ${t}`).execute(db);
  await sql.raw('DROP TABLE tasks_search').execute(db);
}

/** The index and triggers of 0036, over `columns`. */
async function createSearch(db: Kysely<unknown>, columns: string[]): Promise<void> {
  const cols = columns.join(', ');
  const of = (row: 'new' | 'old') => columns.map((c) => `${row}.${c}`).join(', ');
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
  await sql
    .raw(
      `CREATE TRIGGER trg_tasks_search_update AFTER UPDATE OF ${cols} ON tasks BEGIN
         INSERT INTO tasks_search (tasks_search, rowid, ${cols}) VALUES ('delete', old.rowid, ${of('old')});
         INSERT INTO tasks_search (rowid, ${cols}) VALUES (new.rowid, ${of('new')});
       END`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await dropSearch(db);
  await sql.raw('ALTER TABLE tasks RENAME COLUMN order_no TO syb_order_no').execute(db);
  await sql.raw('ALTER TABLE syb_orders RENAME COLUMN order_no TO syb_order_no').execute(db);
  await sql.raw('ALTER TABLE order_submissions RENAME COLUMN order_no TO pdd_order_no').execute(db);
  await createSearch(db, searched('syb_order_no'));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropSearch(db);
  await sql.raw('ALTER TABLE order_submissions RENAME COLUMN pdd_order_no TO order_no').execute(db);
  await sql.raw('ALTER TABLE syb_orders RENAME COLUMN syb_order_no TO order_no').execute(db);
  await sql.raw('ALTER TABLE tasks RENAME COLUMN syb_order_no TO order_no').execute(db);
  await createSearch(db, searched('order_no'));
}
