import { sql, type Kysely } from 'kysely';

// docs/architecture.md §5.4. The row is written only after the file is fsynced and renamed to its content
// address, so a row never points at a partial file. The SHA-256 addresses content, it is not
// the business key: (device, upload_key) is.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('evidence_assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('upload_key', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('attempt_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('privacy_tier', 'text', (c) => c.notNull().check(sql`privacy_tier = 'INTERNAL_RAW'`))
    .addColumn('sha256', 'text', (c) => c.notNull().check(sql`length(sha256) = 64 and sha256 not glob '*[^0-9a-f]*'`))
    .addColumn('byte_size', 'integer', (c) => c.notNull().check(sql`byte_size between 1 and 10485760`))
    .addColumn('content_type', 'text', (c) => c.notNull().check(sql`content_type = 'image/png'`))
    .addColumn('width_px', 'integer', (c) => c.notNull().check(sql`width_px between 1 and 8192`))
    .addColumn('height_px', 'integer', (c) => c.notNull().check(sql`height_px between 1 and 8192`))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_by_device_id', 'text', (c) => c.notNull().references('device_credentials.device_id'))
    .addColumn('captured_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('evidence_assets_device_upload_key', ['uploaded_by_device_id', 'upload_key'])
    .addCheckConstraint('evidence_assets_pixels', sql`width_px * height_px <= 16777216`)
    .addCheckConstraint('evidence_assets_storage_key', sql`storage_key = sha256 || '.png'`)
    .execute();
  await db.schema
    .createIndex('evidence_assets_task_idx')
    .on('evidence_assets')
    .columns(['task_id', 'attempt_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('evidence_assets').execute();
}
