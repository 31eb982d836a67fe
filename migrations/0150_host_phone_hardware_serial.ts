import type { Kysely } from 'kysely';

/**
 * The handset's own serial (`ro.serialno`) beside the ADB serial a host sees it under
 * (docs/phone-hosts.md "One handset, one device"): the same phone over USB and over Wi-Fi
 * (`ip:port`) has two ADB serials and one hardware serial, and is enrolled once. Null: a phone
 * reported by a host from before, or one whose serial could not be read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('host_phones').addColumn('hardware_serial', 'text').execute();
  await db.schema.createIndex('host_phones_hardware_serial').on('host_phones').column('hardware_serial').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('host_phones_hardware_serial').execute();
  await db.schema.alterTable('host_phones').dropColumn('hardware_serial').execute();
}
