import type { Kysely } from 'kysely';

/**
 * The read-screen agent's state as the phone's device worker last reported it
 * (`POST /api/device/status`, domain/phone-agent.ts), shown on 设备. Null: never reported (a worker
 * from before, or one that has not reported yet).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('devices').addColumn('agent_state', 'text').execute();
  await db.schema.alterTable('devices').addColumn('agent_reason', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('agent_reason').execute();
  await db.schema.alterTable('devices').dropColumn('agent_state').execute();
}
