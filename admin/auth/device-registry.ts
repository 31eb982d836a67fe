import { z } from 'zod';
import { nowUtc, toUtcTimestamp } from '../../domain/time';
import type { AdminDb } from '../db/database';

/** Seed 004 §9: online is computed, never stored: seen within the last 10 minutes. */
export const ONLINE_WITHIN_MS = 10 * 60_000;

const text = (max: number) => z.string().trim().min(1).max(max);

/** `POST /api/device/register`; unknown fields are accepted and ignored, for newer workers. */
export const deviceRegistrationSchema = z.object({
  serial: text(128),
  model: text(128),
  app_version: text(64),
  capabilities: z.union([z.array(text(64)).max(64), z.record(z.string().max(64), z.unknown())]).default([]),
});
export type DeviceRegistration = z.infer<typeof deviceRegistrationSchema>;

export interface DeviceView {
  device_id: string;
  display_name: string;
  online: boolean;
  app_version: string | null;
  current_task_id: string | null;
  serial: string | null;
  model: string | null;
  last_seen_at: string | null;
}

/** Idempotent: the same device registering again updates what it reported. */
export async function registerDevice(db: AdminDb, deviceId: string, reg: DeviceRegistration): Promise<{ device_id: string; registered_at: string }> {
  const now = nowUtc();
  const capabilities = JSON.stringify(reg.capabilities);
  await db
    .insertInto('devices')
    .values({
      device_id: deviceId,
      serial: reg.serial,
      model: reg.model,
      app_version: reg.app_version,
      capabilities_json: capabilities,
      last_seen_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('device_id').doUpdateSet({ serial: reg.serial, model: reg.model, app_version: reg.app_version, capabilities_json: capabilities, last_seen_at: now, updated_at: now }),
    )
    .execute();
  return { device_id: deviceId, registered_at: now };
}

/** Any authenticated device call counts as a sign of life; at most one write a minute. */
export async function touchDevice(db: AdminDb, deviceId: string, now = new Date()): Promise<void> {
  const cutoff = toUtcTimestamp(new Date(now.getTime() - 60_000));
  await db.updateTable('devices').set({ last_seen_at: toUtcTimestamp(now) }).where('device_id', '=', deviceId).where('last_seen_at', '<', cutoff).execute();
}

/**
 * Every active credential, registered or not, so a phone that was issued a token but never
 * came up shows as offline instead of being missing. `current_task_id` is the purchase task the
 * phone is working on (claimed or ordering).
 */
export async function listDevices(db: AdminDb, now = new Date()): Promise<DeviceView[]> {
  const rows = await db
    .selectFrom('device_credentials as c')
    .leftJoin('devices as d', 'd.device_id', 'c.device_id')
    .select(['c.device_id', 'c.display_name', 'd.app_version', 'd.serial', 'd.model', 'd.last_seen_at'])
    .where('c.status', '=', 'ACTIVE')
    .orderBy('c.display_name')
    .orderBy('c.device_id')
    .execute();
  // A phone is busy with the purchase task it has claimed and not yet let go of.
  const busy = await db
    .selectFrom('tasks')
    .select(['device_id', 'task_id'])
    .where('task_type', '=', 'purchase')
    .where('status', 'in', ['CLAIMED', 'ORDERING'])
    .where('device_id', 'is not', null)
    .execute();
  const taskOf = new Map(busy.map((t) => [t.device_id, t.task_id]));
  return rows.map((r) => ({
    device_id: r.device_id,
    display_name: r.display_name,
    online: r.last_seen_at !== null && now.getTime() - Date.parse(r.last_seen_at) <= ONLINE_WITHIN_MS,
    app_version: r.app_version,
    current_task_id: taskOf.get(r.device_id) ?? null,
    serial: r.serial,
    model: r.model,
    last_seen_at: r.last_seen_at,
  }));
}

/** The setting (seed 000 §6 `diagnostics.retention_days`) phone hosts apply to failure artifacts. */
export const ARTIFACT_RETENTION_DAYS_DEFAULT = 14;

/**
 * Settings a phone host takes from the admin with each registration, so operators change them
 * on 设置 instead of on every phone host.
 */
export async function phoneHostSettings(db: AdminDb): Promise<{ artifact_retention_days: number }> {
  const row = await db.selectFrom('app_settings').select('value_json').where('setting_key', '=', 'diagnostics.retention_days').executeTakeFirst();
  const value: unknown = row ? JSON.parse(row.value_json) : ARTIFACT_RETENTION_DAYS_DEFAULT;
  const days = typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 3650 ? value : ARTIFACT_RETENTION_DAYS_DEFAULT;
  return { artifact_retention_days: days };
}
