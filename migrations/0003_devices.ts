import { sql, type Kysely } from 'kysely';

// device_credentials (docs/security.md "Devices") (token kept only as SHA-256 of its 32 raw bytes) and the
// device record (docs/architecture.md §5.1), which has no status column: online is computed from last_seen_at.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_credentials')
    .addColumn('device_id', 'text', (c) =>
      c
        .primaryKey()
        .check(
          sql`device_id glob '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-4[0-9a-f][0-9a-f][0-9a-f]-[89ab][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'`,
        ),
    )
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
    .addCheckConstraint(
      'device_credentials_revocation',
      sql`(status = 'ACTIVE' and revoked_at is null) or (status = 'REVOKED' and revoked_at is not null and revoked_at >= created_at)`,
    )
    .execute();

  await db.schema
    .createTable('devices')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('device_credentials.device_id'))
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('app_version', 'text', (c) => c.notNull())
    .addColumn('capabilities_json', 'text', (c) => c.notNull().check(sql`json_valid(capabilities_json)`))
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('devices').execute();
  await db.schema.dropTable('device_credentials').execute();
}
