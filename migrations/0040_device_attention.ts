import { sql, type Kysely } from 'kysely';

/**
 * A phone that needs a person (logged out, a risk check, paused by an operator) takes no claim
 * until an operator resumes it: one row per such phone, removed on resume (docs/architecture.md
 * §3.2). The phone's ADB state as its worker last reported it, so 设备 shows a phone whose
 * connection is gone as offline even while its worker still polls Temporal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_attention')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('device_credentials.device_id'))
    .addColumn('reason_code', 'text', (c) => c.notNull().check(sql`length(reason_code) between 1 and 64`))
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('task_id', 'text')
    .execute();
  await sql.raw('ALTER TABLE devices ADD COLUMN adb_connected INTEGER CHECK (adb_connected IN (0, 1))').execute(db);
  await sql.raw('ALTER TABLE devices ADD COLUMN adb_checked_at TEXT').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE devices DROP COLUMN adb_checked_at').execute(db);
  await sql.raw('ALTER TABLE devices DROP COLUMN adb_connected').execute(db);
  await db.schema.dropTable('device_attention').execute();
}
