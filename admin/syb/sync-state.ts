import { SYB_LIMITS } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import type { AdminDb } from '../db/database';

/*
 * The one `syb_sync_state` row a sync reports into (./sync.ts), and the shipments whose detail it
 * could not read, kept there for the next sync.
 */

export interface FailedShipment {
  id: string;
  error: string;
}

type StateChange = Partial<{
  running: 0 | 1;
  started_at: string;
  finished_at: string | null;
  last_synced_at: string;
  last_error: string | null;
  progress_pages: number;
  progress_lines: number;
  retry_json: string;
}>;

export async function setState(db: AdminDb, change: StateChange): Promise<void> {
  await db
    .updateTable('syb_sync_state')
    .set({ ...change, updated_at: nowUtc() })
    .where('id', '=', 1)
    .execute();
}

export function parseRetries(json: string): FailedShipment[] {
  const v: unknown = JSON.parse(json);
  if (!Array.isArray(v)) return [];
  return v
    .filter((r): r is FailedShipment => typeof (r as FailedShipment)?.id === 'string')
    .slice(0, SYB_LIMITS.retryShipments);
}

/** A failed sync keeps the earlier retries and adds this one's failures. */
export function retryJson(failed: FailedShipment[], previous: string): string {
  const all = [...failed, ...parseRetries(previous).filter((p) => !failed.some((f) => f.id === p.id))];
  return JSON.stringify(all.slice(0, SYB_LIMITS.retryShipments));
}
