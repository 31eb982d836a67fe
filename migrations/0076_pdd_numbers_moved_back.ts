import { sql, type Kysely } from 'kysely';

/**
 * Settling a closed workflow as 「已创建」 once wrote the PDD order number into the task's
 * 顺运宝 column (now `syb_order_no`, 0075). Such a task is found by its 顺运宝 line: its
 * `syb_order_no` differs from the `syb_orders` row it was drafted from. The value moves to
 * `pdd_order_no` when that is still empty, and the 顺运宝 number comes back from the line. Each
 * moved task gets an audit row with both values, so a PDD number that could not move (the task
 * already had a different one) is not lost. Tasks without a line are left alone: nothing says
 * which number they should hold.
 */
const MISPLACED = `SELECT t.task_id, t.syb_order_no AS misplaced, t.pdd_order_no, o.syb_order_no AS restored
  FROM tasks t JOIN syb_orders o ON o.syb_id = t.syb_id
  WHERE t.syb_order_no IS NOT NULL AND t.syb_order_no <> o.syb_order_no`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = (
    await sql<{ task_id: string; misplaced: string; pdd_order_no: string | null; restored: string }>`${sql.raw(
      MISPLACED,
    )}`.execute(db)
  ).rows;
  for (const r of rows) {
    const moved = r.pdd_order_no === null || r.pdd_order_no === '';
    await sql`UPDATE tasks SET syb_order_no = ${r.restored}, pdd_order_no = ${moved ? r.misplaced : r.pdd_order_no}
      WHERE task_id = ${r.task_id}`.execute(db);
    const details = JSON.stringify({
      misplaced: r.misplaced,
      syb_order_no: r.restored,
      pdd_order_no: moved ? r.misplaced : r.pdd_order_no,
      moved_to_pdd_order_no: moved,
    });
    await sql`INSERT INTO audit_log (occurred_at, actor_kind, actor, action, target_kind, target_id, details_json)
      VALUES (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 'system', 'migration 0076', 'task.order_numbers_repaired',
              'task', ${r.task_id}, ${details})`.execute(db);
  }
}

/** Nothing to undo: the numbers are where they belong, and the audit rows say what moved. */
export async function down(): Promise<void> {}
