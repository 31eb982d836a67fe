import { sql, type Kysely } from 'kysely';

/**
 * One word, one meaning: on a task `order_no` is the 顺运宝 order number, as it is on
 * `syb_orders` and in the API, and the PDD order number the phone read gets its own name,
 * `pdd_order_no`. Until now `tasks.order_no` held the PDD number and `syb_order_no` the SYB one.
 * The PDD column is renamed first so the SYB column can take its name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE tasks RENAME COLUMN order_no TO pdd_order_no').execute(db);
  await sql.raw('ALTER TABLE tasks RENAME COLUMN syb_order_no TO order_no').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE tasks RENAME COLUMN order_no TO syb_order_no').execute(db);
  await sql.raw('ALTER TABLE tasks RENAME COLUMN pdd_order_no TO order_no').execute(db);
}
