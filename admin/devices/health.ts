import { z } from 'zod';
import { healthRefusal, type HealthRefusal } from '../../domain/phone-health';
import { nowUtc } from '../../domain/time';
import type { AdminDb } from '../db/database';
import { versionSchema } from './reported-fields';

/**
 * A phone's health readings (docs/phone-hosts.md "Health"): its host reads them every minute,
 * its worker once more right before it takes a claim. The last one is kept per phone; the claim
 * check and 设备 both judge it with `healthRefusal` (domain/phone-health.ts).
 */
export const healthReadingSchema = z
  .object({
    battery_level: z.number().int().min(0).max(100),
    charging: z.boolean(),
    screen: z.enum(['on', 'off', 'locked']),
    // 100 TB: any larger reading is not a phone's
    free_storage_mb: z.number().int().min(0).max(100_000_000),
    app_version: versionSchema(64).optional(),
  })
  .strict();
export type HealthReading = z.infer<typeof healthReadingSchema>;

export async function storeHealthReading(db: AdminDb, deviceId: string, h: HealthReading): Promise<void> {
  const row = {
    battery_level: h.battery_level,
    charging: h.charging ? 1 : 0,
    screen: h.screen,
    free_storage_mb: h.free_storage_mb,
    checked_at: nowUtc(),
    app_version: h.app_version ?? null,
  };
  await db
    .insertInto('device_health')
    .values({ device_id: deviceId, ...row })
    .onConflict((oc) => oc.column('device_id').doUpdateSet(row))
    .execute();
}

/** What a worker registers for each PDD version it has a page profile of (admin/devices/app-versions.ts). */
const PROFILE_PREFIX = 'profile:';

/**
 * Per device, the PDD versions its worker has a page profile of, from its registration's
 * capabilities; a device that never registered is absent (nothing known, nothing refused).
 */
export async function profiledVersions(db: AdminDb, deviceIds?: string[]): Promise<Map<string, Set<string>>> {
  if (deviceIds?.length === 0) return new Map();
  let q = db.selectFrom('devices').select(['device_id', 'capabilities_json']);
  if (deviceIds) q = q.where('device_id', 'in', deviceIds);
  const out = new Map<string, Set<string>>();
  for (const r of await q.execute()) {
    let caps: unknown;
    try {
      caps = JSON.parse(r.capabilities_json);
    } catch {
      continue;
    }
    if (!Array.isArray(caps)) continue;
    out.set(
      r.device_id,
      new Set(
        caps
          .filter((c): c is string => typeof c === 'string' && c.startsWith(PROFILE_PREFIX))
          .map((c) => c.slice(PROFILE_PREFIX.length)),
      ),
    );
  }
  return out;
}

/** False only when the version read and the worker's profiles are both known and the version is not among them. */
export function isProfiled(profiles: Map<string, Set<string>>, deviceId: string, appVersion: string | null): boolean {
  const p = profiles.get(deviceId);
  return !p || appVersion === null || p.has(appVersion);
}

/**
 * The host-side reason this phone may not claim now (pending, low battery, locked, low storage,
 * unprofiled PDD version), or null.
 */
export async function hostClaimRefusal(db: AdminDb, deviceId: string): Promise<HealthRefusal | null> {
  const p = await db
    .selectFrom('host_phones')
    .select('approved_at')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  if (p && p.approved_at === null) return 'PHONE_PENDING';
  const h = await db
    .selectFrom('device_health')
    .select(['battery_level', 'charging', 'screen', 'free_storage_mb', 'app_version'])
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  if (!h) return null;
  const profiles = await profiledVersions(db, [deviceId]);
  return healthRefusal({ ...h, charging: h.charging === 1 }, isProfiled(profiles, deviceId, h.app_version));
}
