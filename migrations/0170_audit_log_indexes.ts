import { sql, type Kysely } from 'kysely';

/**
 * 审计日志 is read newest first, page by page, filtered by action or by phone
 * (admin/audit/list.ts, keyset on id). Each index ends in the rowid, so a filtered page is an
 * index range in list order instead of every matching row collected and sorted per page. Both
 * are partial, so SQLite takes them for that list only (test/audit/audit-list.test.ts checks
 * the list's plans).
 *
 * The phone a row is about: its target, else the device that acted, else a `device_id` its
 * details name. The expression is repeated verbatim in admin/audit/list.ts (SQLite uses an
 * expression index only for the same expression).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Partial on a condition that always holds (ids start at 1) but only the list states. Without
  // statistics SQLite would take a plain action index for the other audit reads too (an order
  // line's 规格 choice looked up by action instead of by its target, for one), changing plans
  // nobody measured. Not `occurred_at is not null`: SQLite drops that term of a NOT NULL column.
  await db.schema
    .createIndex('audit_log_action_idx')
    .on('audit_log')
    .column('action')
    .where(sql.ref('id'), '>', 0)
    .execute();
  await sql`create index audit_log_device_idx on audit_log (
    (case when target_kind = 'device' then target_id when actor_kind = 'device' then actor else json_extract(details_json, '$.device_id') end)
  ) where (case when target_kind = 'device' then target_id when actor_kind = 'device' then actor else json_extract(details_json, '$.device_id') end) is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_device_idx').execute();
  await db.schema.dropIndex('audit_log_action_idx').execute();
}
