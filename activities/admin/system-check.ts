import { sql } from 'kysely';
import type { AdminDb } from '../../admin/db/database';
import { nowUtc } from '../../domain/time';
import type { SystemCheckResult } from '../../domain/system-check';

export function systemCheckActivities(db: AdminDb) {
  return {
    /** Idempotent: a retry overwrites the same setting with a newer time. */
    async recordSystemCheck(input: { workflowId: string }): Promise<SystemCheckResult> {
      const tables = await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table'`.execute(db);
      const checkedAt = nowUtc();
      const result: SystemCheckResult = {
        workflow_id: input.workflowId,
        db: 'ok',
        tables: tables.rows[0]?.n ?? 0,
        checked_at: checkedAt,
      };
      await db
        .insertInto('app_settings')
        .values({
          setting_key: 'diagnostics.last_system_check',
          value_json: JSON.stringify(result),
          updated_at: checkedAt,
        })
        .onConflict((oc) =>
          oc.column('setting_key').doUpdateSet({ value_json: JSON.stringify(result), updated_at: checkedAt }),
        )
        .execute();
      return result;
    },
  };
}
