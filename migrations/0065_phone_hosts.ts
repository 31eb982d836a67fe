import { sql, type Kysely } from 'kysely';

/**
 * Phone hosts (docs/phone-hosts.md): one credential per machine with phones plugged in, kept
 * like a device token (SHA-256 of its 32 raw bytes). Each phone a host reports becomes a device
 * credential whose token nobody knows until an operator approves it (`host_phones.approved_at`);
 * the host then fetches a fresh one over its own channel. `device_health` is the host's last
 * reading of a phone's battery, screen and storage.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('phone_hosts')
    .addColumn('host_id', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull().check(sql`length(display_name) between 1 and 100`))
    .addColumn('token_sha256', 'blob', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`length(token_sha256) = 32`),
    )
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('ACTIVE', 'REVOKED')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_seen_at', 'text')
    .addColumn('metrics_target', 'text')
    .execute();
  await db.schema
    .createTable('host_phones')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('device_credentials.device_id'))
    .addColumn('host_id', 'text', (c) => c.notNull().references('phone_hosts.host_id'))
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('android_version', 'text', (c) => c.notNull())
    .addColumn('app_version', 'text', (c) => c.notNull())
    .addColumn('approved_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('host_phones_host_serial', ['host_id', 'serial'])
    .execute();
  await db.schema
    .createTable('device_health')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('device_credentials.device_id'))
    .addColumn('battery_level', 'integer', (c) => c.notNull().check(sql`battery_level between 0 and 100`))
    .addColumn('charging', 'integer', (c) => c.notNull().check(sql`charging in (0, 1)`))
    .addColumn('screen', 'text', (c) => c.notNull().check(sql`screen in ('on', 'off', 'locked')`))
    .addColumn('free_storage_mb', 'integer', (c) => c.notNull().check(sql`free_storage_mb >= 0`))
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('device_health').execute();
  await db.schema.dropTable('host_phones').execute();
  await db.schema.dropTable('phone_hosts').execute();
}
