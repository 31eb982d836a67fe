import { z } from 'zod';
import type { DeviceWorkerHints } from '../../domain/device-worker-command';
import type { DeviceView } from '../../domain/devices';
import { parseUtcTimestamp } from '../../domain/time';
import type { AdminDb } from '../db/database';
import type { TemporalSettings } from '../temporal/gateway';

const publicUrl = z.url().optional();

/**
 * The admin's own Temporal settings and public address, as hints for a device worker started by
 * hand elsewhere (never the TLS material or the API key themselves).
 */
export function deviceWorkerHints(temporal: TemporalSettings, env: NodeJS.ProcessEnv = process.env): DeviceWorkerHints {
  const parsed = publicUrl.safeParse(env.CMAUTOBUY_ADMIN_PUBLIC_URL || undefined);
  return {
    admin_url: parsed.success && parsed.data ? parsed.data.replace(/\/+$/, '') : null,
    temporal_address: temporal.address,
    temporal_namespace: temporal.namespace,
    temporal_tls: temporal.tls !== undefined || temporal.apiKey !== undefined,
    temporal_mtls: temporal.tls?.clientCertPair !== undefined,
    temporal_ca: temporal.tls?.serverRootCACertificate !== undefined,
    temporal_server_name: temporal.tls?.serverNameOverride ?? null,
    temporal_api_key: temporal.apiKey !== undefined,
  };
}

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
