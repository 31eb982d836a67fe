import { sql, type Kysely } from 'kysely';

/**
 * Paying, phone by phone (docs/operator-guide.md §8).
 *
 * `device_credentials.pdd_account`: the PDD account a phone is logged in as, set by an operator on
 * 设备 — nothing on the phone reports it, and a person paying has to know which account to open.
 *
 * `payment_checks`: after 标记已付款, a read-only look at that phone's 待付款 list
 * (workflows/payment-check.ts) says whether the order really left it. One row per task, the
 * latest check: `pending` until the phone was free to look, then `confirmed`, `mismatch` (the
 * order is still listed as 待付款) or `unavailable` (the look could not be made or could not tell).
 *
 * Both show on the task list, so a change raises `task_list_version` like a change of the task
 * (migration 0135).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE device_credentials ADD COLUMN pdd_account TEXT`.execute(db);
  await db.schema
    .createTable('payment_checks')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('pdd_order_no', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status IN ('pending', 'confirmed', 'mismatch', 'unavailable')`),
    )
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'text')
    .addColumn('message', 'text')
    .execute();
  // the check of a phone reads its pending rows; 需处理 reads the mismatches
  await sql`CREATE INDEX idx_payment_checks_device ON payment_checks(device_id, status)`.execute(db);
  await sql`CREATE INDEX idx_payment_checks_status ON payment_checks(status)`.execute(db);

  const raise = `UPDATE task_list_version SET n = n + 1 WHERE id = 1;`;
  for (const event of ['INSERT', 'UPDATE', 'DELETE'])
    await sql
      .raw(
        `CREATE TRIGGER trg_task_list_version_payment_check_${event.toLowerCase()} AFTER ${event} ON payment_checks BEGIN ${raise} END`,
      )
      .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER trg_task_list_version_pdd_account AFTER UPDATE OF pdd_account ON device_credentials BEGIN ${raise} END`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['payment_check_insert', 'payment_check_update', 'payment_check_delete', 'pdd_account'])
    await sql.raw(`DROP TRIGGER trg_task_list_version_${t}`).execute(db);
  await db.schema.dropTable('payment_checks').execute();
  await sql`ALTER TABLE device_credentials DROP COLUMN pdd_account`.execute(db);
}
