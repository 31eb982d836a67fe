import { sql, type Kysely } from 'kysely';

/**
 * `syb_account_secret`: the 顺运宝 password set on 设置, sealed with the Temporal payload key
 * (AES-256-GCM, temporal/codec) — never in clear — so the admin worker, a process of its own
 * that runs the syncs, has the account the operator set, and a restart of either process keeps
 * it. One row: `sealed` holds `{url, username, password}` (the password is bound to the address
 * and user name it was given with) under key `key_id`; both null once a change of address or
 * user name without the password dropped it. No row: the operator never set one (the
 * environment's password applies).
 */
const UTC = (col: string) =>
  sql.raw(`${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('syb_account_secret')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('key_id', 'text')
    .addColumn('sealed', 'blob')
    .addColumn('updated_at', 'text', (c) => c.notNull().check(UTC('updated_at')))
    .addCheckConstraint('syb_account_secret_sealed_with_key', sql`(key_id IS NULL) = (sealed IS NULL)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('syb_account_secret').execute();
}
