import type { Kysely } from 'kysely';

/**
 * The PDD version read with a phone's health (docs/phone-hosts.md "Health"): a phone whose
 * worker has no page profile for the version it runs now takes no claim, with the reason on 设备.
 * Null: a reading from before, or one that could not read the version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('device_health').addColumn('app_version', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('device_health').dropColumn('app_version').execute();
}
