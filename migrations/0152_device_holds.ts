import type { Kysely } from 'kysely';

/**
 * A person holding a phone from the admin (人工操作中): one row a held phone, its holder's
 * session kept as the SHA-256 the sessions table keys on, so a logout or an expired session ends
 * the hold. No row: automation's phone. And `device_attention.check_requested_at`: an operator
 * pressed 处理完毕，继续 and the phone's worker has still to read the screen before the stop clears.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_holds')
    .addColumn('device_id', 'text', (c) => c.primaryKey())
    .addColumn('held_by', 'text', (c) => c.notNull())
    .addColumn('session_sha256', 'blob', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('last_input_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('device_attention').addColumn('check_requested_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('device_attention').dropColumn('check_requested_at').execute();
  await db.schema.dropTable('device_holds').execute();
}
