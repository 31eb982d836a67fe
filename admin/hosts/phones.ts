import crypto from 'node:crypto';
import { z } from 'zod';
import {
  healthRefusal,
  HEALTH_REFUSALS,
  type HealthRefusal,
  type PhoneHealth,
  type PhoneState,
} from '../../domain/phone-health';
import { cutText } from '../../domain/text';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { DeviceCredentialError, rotateDeviceCredential } from '../auth/device-credentials';
import { writeTransaction, type AdminDb } from '../db/database';
import { noteAppVersionSeen } from '../devices/app-versions';
import { modelSchema, SERIAL_MAX, serialSchema, versionSchema } from '../devices/reported-fields';
import { conflict, tooMany } from '../../domain/api-error';
import { readSetting } from '../settings/settings';
import { checkMetricsTarget, targetAtRemote } from './metrics-target';
import { healthReadingSchema, isProfiled, profiledVersions, storeHealthReading } from '../devices/health';

/**
 * The phones of phone hosts (docs/phone-hosts.md): a host reports each phone it sees; the phone
 * waits as 待批准 until an operator approves it; then the host fetches a fresh device token for
 * it over the host channel — the admin keeps only hashes, so every fetch rotates the token and
 * the host keeps it in memory only.
 */
// checked as every reported field is (admin/devices/reported-fields.ts): printable, bounded, serials and versions from a small set
export const hostPhoneReportSchema = z.object({
  serial: serialSchema,
  model: modelSchema(64),
  android_version: versionSchema(32),
  app_version: versionSchema(64),
  /** `ro.serialno`: the handset itself, whatever ADB serial it is seen under (absent from hosts before; null: unreadable) */
  hardware_serial: serialSchema.nullable().default(null),
});
export type HostPhoneReport = z.infer<typeof hostPhoneReportSchema>;

export const phoneHealthReportSchema = healthReadingSchema;

export const heartbeatSchema = z.object({
  /** `host:port`, judged against the request's address (admin/hosts/metrics-target.ts) */
  metrics_target: z.string().max(260).nullable().default(null),
  /** instead of a target: scrape this port at the address this host connects from */
  metrics_port: z.number().int().min(1).max(65535).optional(),
  /** the serials this host sees on ADB now: its other phones show 离线 at once */
  present: z.array(z.string().max(SERIAL_MAX)).max(256).default([]),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;

export interface HostPhoneView {
  device_id: string;
  serial: string;
  state: PhoneState;
}

const hostActor = (hostId: string): AuditActor => ({ kind: 'system', name: `host:${hostId}` });

function stateOf(status: string, approvedAt: string | null): PhoneState {
  if (status !== 'ACTIVE') return 'revoked';
  return approvedAt === null ? 'pending' : 'active';
}

/**
 * Idempotent: the same serial on the same host is the same phone, whatever it reports now. One
 * handset is one device: a new ADB serial whose hardware serial an enrolled phone already has (the
 * same phone over Wi-Fi as `ip:port`, or on another host) is refused, PHONE_ALREADY_ENROLLED.
 */
export async function reportHostPhone(db: AdminDb, hostId: string, r: HostPhoneReport): Promise<HostPhoneView> {
  return writeTransaction(db, async (trx) => {
    const known = await trx
      .selectFrom('host_phones as p')
      .innerJoin('device_credentials as c', 'c.device_id', 'p.device_id')
      .select(['p.device_id', 'p.approved_at', 'c.status'])
      .where('p.host_id', '=', hostId)
      .where('p.serial', '=', r.serial)
      .executeTakeFirst();
    if (known) {
      await trx
        .updateTable('host_phones')
        .set({
          model: r.model,
          android_version: r.android_version,
          app_version: r.app_version,
          ...(r.hardware_serial ? { hardware_serial: r.hardware_serial } : {}),
        })
        .where('device_id', '=', known.device_id)
        .execute();
      return { device_id: known.device_id, serial: r.serial, state: stateOf(known.status, known.approved_at) };
    }
    if (r.hardware_serial) {
      const same = await trx
        .selectFrom('host_phones as p')
        .innerJoin('device_credentials as c', 'c.device_id', 'p.device_id')
        .select(['p.device_id', 'p.serial', 'p.host_id'])
        .where('p.hardware_serial', '=', r.hardware_serial)
        .where('c.status', '=', 'ACTIVE')
        .executeTakeFirst();
      if (same)
        throw conflict(
          'PHONE_ALREADY_ENROLLED',
          `the handset ${r.hardware_serial} seen as ${r.serial} is already enrolled as device ${same.device_id} (${same.serial} on host ${same.host_id})`,
          { device_id: same.device_id },
        );
    }
    // A host names its phones itself; only an operator's 批准 or 拒绝 takes one off this count.
    const limit = await readSetting(trx, 'hosts.max_pending_phones');
    const { pending } = await trx
      .selectFrom('host_phones as p')
      .innerJoin('device_credentials as c', 'c.device_id', 'p.device_id')
      .select((eb) => eb.fn.countAll<number>().as('pending'))
      .where('p.host_id', '=', hostId)
      .where('p.approved_at', 'is', null)
      .where('c.status', '=', 'ACTIVE')
      .executeTakeFirstOrThrow();
    if (pending >= limit)
      throw tooMany(
        'HOST_PENDING_LIMIT',
        `host ${hostId} already has ${pending} phones waiting for approval (limit ${limit}, setting hosts.max_pending_phones); approve or reject them first`,
        { limit },
      );
    const deviceId = crypto.randomUUID();
    const now = nowUtc();
    await trx
      .insertInto('device_credentials')
      .values({
        device_id: deviceId,
        display_name: cutText(`${r.model} ${r.serial}`, 100),
        // nobody knows this token: the first fetch after approval replaces it
        token_sha256: crypto.randomBytes(32),
        status: 'ACTIVE',
        created_at: now,
        revoked_at: null,
      })
      .execute();
    await trx
      .insertInto('host_phones')
      .values({ device_id: deviceId, host_id: hostId, ...r, approved_at: null, created_at: now })
      .execute();
    await noteAppVersionSeen(trx, r.app_version);
    await recordAudit(trx, hostActor(hostId), {
      action: 'host.phone_seen',
      target: { kind: 'device', id: deviceId },
      details: { serial: r.serial, hardware_serial: r.hardware_serial, model: r.model, app_version: r.app_version },
    });
    return { device_id: deviceId, serial: r.serial, state: 'pending' };
  });
}

export async function listHostPhones(db: AdminDb, hostId: string): Promise<HostPhoneView[]> {
  const rows = await db
    .selectFrom('host_phones as p')
    .innerJoin('device_credentials as c', 'c.device_id', 'p.device_id')
    .select(['p.device_id', 'p.serial', 'p.approved_at', 'c.status'])
    .where('p.host_id', '=', hostId)
    .orderBy('p.serial')
    .execute();
  return rows.map((r) => ({ device_id: r.device_id, serial: r.serial, state: stateOf(r.status, r.approved_at) }));
}

async function ownPhone(db: AdminDb, hostId: string, deviceId: string) {
  const row = await db
    .selectFrom('host_phones as p')
    .innerJoin('device_credentials as c', 'c.device_id', 'p.device_id')
    .select(['p.approved_at', 'c.status'])
    .where('p.device_id', '=', deviceId)
    .where('p.host_id', '=', hostId)
    .executeTakeFirst();
  if (!row) throw new DeviceCredentialError('not_found', 'DEVICE_NOT_FOUND', `no phone ${deviceId} on this host`);
  return row;
}

/** A fresh token for an approved phone of this host; the old one stops working. */
export async function issueHostPhoneToken(db: AdminDb, hostId: string, deviceId: string): Promise<string> {
  const row = await ownPhone(db, hostId, deviceId);
  if (row.status !== 'ACTIVE')
    throw new DeviceCredentialError('conflict', 'DEVICE_REVOKED', `phone ${deviceId} is revoked`);
  if (row.approved_at === null)
    throw new DeviceCredentialError('conflict', 'PHONE_NOT_APPROVED', `phone ${deviceId} waits for approval`);
  return (await rotateDeviceCredential(db, hostActor(hostId), deviceId)).token;
}

export async function reportPhoneHealth(
  db: AdminDb,
  hostId: string,
  deviceId: string,
  h: z.infer<typeof phoneHealthReportSchema>,
): Promise<{ refusal: HealthRefusal | null }> {
  await ownPhone(db, hostId, deviceId);
  await storeHealthReading(db, deviceId, h);
  if (h.app_version)
    await db.updateTable('host_phones').set({ app_version: h.app_version }).where('device_id', '=', deviceId).execute();
  const profiles = await profiledVersions(db, [deviceId]);
  return { refusal: healthRefusal(h, isProfiled(profiles, deviceId, h.app_version ?? null)) };
}

/**
 * A host's heartbeat; `remoteAddress` is where its request came from. A metrics target the
 * host may not name (admin/hosts/metrics-target.ts) refuses the whole beat before anything is
 * written.
 */
export async function hostHeartbeat(
  db: AdminDb,
  hostId: string,
  beat: Heartbeat,
  remoteAddress: string,
): Promise<void> {
  const target =
    beat.metrics_target !== null
      ? checkMetricsTarget(beat.metrics_target, remoteAddress)
      : beat.metrics_port !== undefined
        ? targetAtRemote(beat.metrics_port, remoteAddress)
        : null;
  const now = nowUtc();
  await db
    .updateTable('phone_hosts')
    .set({ last_seen_at: now, metrics_target: target })
    .where('host_id', '=', hostId)
    .execute();
  // the same column the worker's own status check writes (admin/devices/attention.ts)
  const phones = await db
    .selectFrom('host_phones')
    .select(['device_id', 'serial'])
    .where('host_id', '=', hostId)
    .execute();
  const present = new Set(beat.present);
  for (const connected of [0, 1] as const) {
    const ids = phones.filter((p) => present.has(p.serial) === (connected === 1)).map((p) => p.device_id);
    if (ids.length > 0)
      await db
        .updateTable('devices')
        .set({ adb_connected: connected, adb_checked_at: now })
        .where('device_id', 'in', ids)
        .execute();
  }
}

async function pendingPhone(trx: AdminDb, deviceId: string): Promise<{ host_id: string; serial: string }> {
  const row = await trx
    .selectFrom('host_phones as p')
    .innerJoin('device_credentials as c', 'c.device_id', 'p.device_id')
    .select(['p.host_id', 'p.serial', 'p.approved_at', 'c.status'])
    .where('p.device_id', '=', deviceId)
    .executeTakeFirst();
  if (!row) throw new DeviceCredentialError('not_found', 'DEVICE_NOT_FOUND', `no phone ${deviceId} of a phone host`);
  if (row.status !== 'ACTIVE' || row.approved_at !== null)
    throw new DeviceCredentialError('conflict', 'PHONE_NOT_PENDING', `phone ${deviceId} is not waiting for approval`);
  return row;
}

/** 批准: the phone's host may now fetch its token and run its worker. */
export async function approveHostPhone(db: AdminDb, actor: AuditActor, deviceId: string): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const p = await pendingPhone(trx, deviceId);
    await trx.updateTable('host_phones').set({ approved_at: nowUtc() }).where('device_id', '=', deviceId).execute();
    await recordAudit(trx, actor, {
      action: 'device.approve',
      target: { kind: 'device', id: deviceId },
      details: { host_id: p.host_id, serial: p.serial },
    });
  });
}

/** 拒绝: the phone is revoked and leaves 设备; its host does not report it again. */
export async function rejectHostPhone(db: AdminDb, actor: AuditActor, deviceId: string): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const p = await pendingPhone(trx, deviceId);
    await trx
      .updateTable('device_credentials')
      .set({ status: 'REVOKED', revoked_at: nowUtc() })
      .where('device_id', '=', deviceId)
      .execute();
    await recordAudit(trx, actor, {
      action: 'device.reject',
      target: { kind: 'device', id: deviceId },
      details: { host_id: p.host_id, serial: p.serial },
    });
  });
}

export interface HostFields {
  state: PhoneState;
  host_id: string | null;
  serial: string | null;
  model: string | null;
  app_version: string | null;
  health: PhoneHealth | null;
  /** why the phone takes no claim now, from its host's reading (attention is separate) */
  claim_block: { reason_code: HealthRefusal; message: string } | null;
}

/** What 设备 shows of hosts and health, per active device id. */
export async function hostFieldsByDevice(db: AdminDb): Promise<Map<string, HostFields>> {
  const phones = await db
    .selectFrom('host_phones')
    .select(['device_id', 'host_id', 'serial', 'model', 'app_version', 'approved_at'])
    .execute();
  const health = await db.selectFrom('device_health').selectAll().execute();
  const profiles = await profiledVersions(db);
  const profiled = new Map(health.map((h) => [h.device_id, isProfiled(profiles, h.device_id, h.app_version)]));
  const healthOf = new Map(
    health.map((h) => [
      h.device_id,
      {
        battery_level: h.battery_level,
        charging: h.charging === 1,
        screen: h.screen,
        free_storage_mb: h.free_storage_mb,
        checked_at: h.checked_at,
      } satisfies PhoneHealth,
    ]),
  );
  const out = new Map<string, HostFields>();
  const block = (code: HealthRefusal | null) => (code ? { reason_code: code, message: HEALTH_REFUSALS[code] } : null);
  for (const p of phones) {
    const h = healthOf.get(p.device_id) ?? null;
    const pending = p.approved_at === null;
    out.set(p.device_id, {
      state: pending ? 'pending' : 'active',
      host_id: p.host_id,
      serial: p.serial,
      model: p.model,
      app_version: p.app_version,
      health: h,
      claim_block: block(pending ? 'PHONE_PENDING' : h ? healthRefusal(h, profiled.get(p.device_id)) : null),
    });
  }
  for (const [id, h] of healthOf)
    if (!out.has(id))
      out.set(id, {
        state: 'active',
        host_id: null,
        serial: null,
        model: null,
        app_version: null,
        health: h,
        claim_block: block(healthRefusal(h, profiled.get(id))),
      });
  return out;
}
