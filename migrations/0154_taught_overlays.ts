import type { Kysely } from 'kysely';

/**
 * Popups a person taught from the live screen (admin/devices/taught-overlays.ts): an overlay
 * entry of one PDD app version's profile — its signature and the one control that closes it —
 * as JSON checked by the profile's own rules (domain/pdd-overlay.ts). It reaches the phones only
 * once an operator reviewed it (`reviewed_at`); a retired one never again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('taught_overlays')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('app_version', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('entry_json', 'text', (c) => c.notNull())
    .addColumn('taught_by', 'text', (c) => c.notNull())
    .addColumn('taught_at', 'text', (c) => c.notNull())
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'text')
    .addColumn('retired_at', 'text')
    .execute();
  await db.schema.createIndex('taught_overlays_version').on('taught_overlays').columns(['app_version']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('taught_overlays').execute();
}
