import type { DeviceView } from '../../domain/devices';
import { parseUtcTimestamp } from '../../domain/time';
import type { AdminDb } from '../db/database';

/** Within this a device's last admin call counts as "its worker runs". */
const RECENT_MS = 5 * 60_000;

/**
 * 已注册，未连上 Temporal: the worker talks to the admin (registered, status checks) and its phone
 * is on ADB, yet Temporal sees no poller on its queue — its Temporal address or namespace is not
 * the admin's. Only said when Temporal itself answered (online_source `temporal`).
 */
export async function temporalMissingCheck(
  db: AdminDb,
  now = new Date(),
): Promise<(d: Pick<DeviceView, 'device_id' | 'online' | 'online_source' | 'last_seen_at'>) => boolean> {
  const gone = new Set(
    (await db.selectFrom('devices').select('device_id').where('adb_connected', '=', 0).execute()).map(
      (r) => r.device_id,
    ),
  );
  return (d) =>
    !d.online &&
    d.online_source === 'temporal' &&
    d.last_seen_at !== null &&
    now.getTime() - parseUtcTimestamp(d.last_seen_at).getTime() <= RECENT_MS &&
    !gone.has(d.device_id);
}
