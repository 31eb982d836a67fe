import { ApplicationFailure } from '@temporalio/common';
import type { AdminDb } from '../../../admin/db/database';
import type { StopFacts } from '../../../domain/purchase/stop-facts';

/** An error a retry cannot heal: the workflow turns it into a stop (before the fence) or 待核对 (after). */
export const nonRetryable = (message: string, type: string) => ApplicationFailure.nonRetryable(message, type);

/** ACTIVE, REVOKED, or UNKNOWN for a device the admin never issued a token to. */
export async function deviceStatus(trx: AdminDb, deviceId: string): Promise<'ACTIVE' | 'REVOKED' | 'UNKNOWN'> {
  const row = await trx
    .selectFrom('device_credentials')
    .select('status')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row?.status ?? 'UNKNOWN';
}

/** One entry of an attempt's timeline (`purchase_attempts.timeline_json`). */
export interface TimelineEntry {
  at: string;
  status: string;
  reason: string | null;
  detail: string | null;
  actor: string | null;
  /** the detail as data (domain/purchase/stop-facts.ts); entries from before have none */
  facts?: StopFacts;
}

/** Appends to the timeline of the authorization's attempt; nothing when it has none yet. */
export async function appendTimeline(trx: AdminDb, authorizationId: string, entry: TimelineEntry): Promise<void> {
  const attempt = await trx
    .selectFrom('purchase_attempts')
    .select(['id', 'timeline_json'])
    .where('authorization_id', '=', authorizationId)
    .executeTakeFirst();
  if (!attempt) return;
  const timeline = JSON.parse(attempt.timeline_json) as TimelineEntry[];
  timeline.push(entry);
  await trx
    .updateTable('purchase_attempts')
    .set({ timeline_json: JSON.stringify(timeline) })
    .where('id', '=', attempt.id)
    .execute();
}
