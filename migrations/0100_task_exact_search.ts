import { sql, type Kysely } from 'kysely';

/**
 * The task list's search for a whole identifier — an order number, a PDD order number — seeks
 * these instead of the trigram index (admin/purchase/queries.ts): a long digit string shares its
 * trigrams with most tasks, so the trigram phrase reads long posting lists (docs/PERFORMANCE.md).
 * Partial: drafts and collect runs have no order numbers and add nothing to them. The goods id
 * has `idx_tasks_goods` and the task id is the primary key already.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX idx_tasks_syb_order_no ON tasks(syb_order_no) WHERE syb_order_no IS NOT NULL`.execute(db);
  await sql`CREATE INDEX idx_tasks_pdd_order_no ON tasks(pdd_order_no) WHERE pdd_order_no IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX idx_tasks_pdd_order_no`.execute(db);
  await sql`DROP INDEX idx_tasks_syb_order_no`.execute(db);
}
