import { notFound } from '../../domain/api-error';
import type { HoldRecording, HoldRecordingsView } from '../../domain/hold-recording';
import type { AdminDb } from '../db/database';

/** How many of a phone's holds the page lists, newest first: a phone held daily still answers quickly. */
const HOLDS_LISTED = 50;

function detailsOf(json: string | null): { from?: unknown; to?: unknown } {
  try {
    return (JSON.parse(json ?? '{}') ?? {}) as { from?: unknown; to?: unknown };
  } catch {
    return {};
  }
}

/**
 * A phone's holds with the frames its worker recorded of each (device-worker/runtime/hold-recorder.ts),
 * newest hold first. The holds are read from the audit log — the `device_holds` row goes when a
 * hold ends, its `device.hold` and `device.release` rows stay as long as the frames do — and the
 * frames are evidence rows of kind HOLD_FRAME keyed by the hold's start (admin/evidence/store.ts).
 * A hold with no frame is listed too: everything it showed may have been a payment screen.
 */
export async function holdRecordings(db: AdminDb, deviceId: string): Promise<HoldRecordingsView> {
  const known = await db
    .selectFrom('device_credentials')
    .select('device_id')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  if (!known) throw notFound('DEVICE_NOT_FOUND', `no device ${deviceId}`);
  const audit = await db
    .selectFrom('audit_log')
    .select(['action', 'actor', 'details_json'])
    .where('target_kind', '=', 'device')
    .where('target_id', '=', deviceId)
    .where('action', 'in', ['device.hold', 'device.release'])
    .orderBy('id', 'desc')
    .execute();
  const ends = new Map<string, string>();
  const holds: HoldRecording[] = [];
  for (const row of audit) {
    const d = detailsOf(row.details_json);
    if (typeof d.from !== 'string') continue;
    if (row.action === 'device.release' && typeof d.to === 'string') ends.set(d.from, d.to);
    if (row.action === 'device.hold' && holds.length < HOLDS_LISTED)
      holds.push({ held_by: row.actor, since: d.from, until: null, frames: [] });
  }
  for (const h of holds) h.until = ends.get(h.since) ?? null;
  if (holds.length === 0) return { holds };
  const frames = await db
    .selectFrom('evidence_assets')
    .select(['id', 'attempt_id', 'captured_at'])
    .where('uploaded_by_device_id', '=', deviceId)
    .where('kind', '=', 'HOLD_FRAME')
    .where(
      'attempt_id',
      'in',
      holds.map((h) => h.since),
    )
    .orderBy('captured_at')
    .orderBy('created_at')
    .execute();
  const bySince = new Map(holds.map((h) => [h.since, h]));
  for (const f of frames) bySince.get(f.attempt_id)?.frames.push({ evidence_id: f.id, captured_at: f.captured_at });
  return { holds };
}
