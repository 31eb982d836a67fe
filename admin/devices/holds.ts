import { conflict, notFound } from '../../domain/api-error';
import { nowUtc, toUtcTimestamp } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { readSetting } from '../settings/settings';

/**
 * A person holding a phone from the admin (人工操作中, docs/api.md §12.3): while a row exists the
 * phone's worker takes no claim and makes no automated input (it asks before each one), and only
 * the holder may send input. One holder at a time; the hold ends by the holder's button, the
 * page closing, logout or session expiry, or the idle limit (设置 `devices.hold_idle_minutes`).
 */

export interface DeviceHold {
  device_id: string;
  held_by: string;
  since: string;
  idle_release_at: string;
}

/** Why a hold ended, as the audit row and the 设备 page say it. */
type HoldEnd = 'released' | 'page_closed' | 'logout' | 'session_ended' | 'idle' | 'phone_revoked';

export interface Holder {
  username: string;
  sessionIdSha256: Buffer;
}

async function idleLimitMs(db: AdminDb): Promise<number> {
  return (await readSetting(db, 'devices.hold_idle_minutes')) * 60_000;
}

function view(
  row: { device_id: string; held_by: string; since: string; last_input_at: string },
  idleMs: number,
): DeviceHold {
  return {
    device_id: row.device_id,
    held_by: row.held_by,
    since: row.since,
    idle_release_at: toUtcTimestamp(new Date(Date.parse(row.last_input_at) + idleMs)),
  };
}

/**
 * Only a phone automation could use may be held: an active credential, and for a host's phone
 * an approved one — a revoked or rejected phone is nobody's to take.
 */
async function requireHoldable(trx: AdminDb, deviceId: string): Promise<void> {
  const cred = await trx
    .selectFrom('device_credentials')
    .select('status')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  if (!cred) throw notFound('DEVICE_NOT_FOUND', `no device ${deviceId}`);
  if (cred.status !== 'ACTIVE') throw conflict('DEVICE_REVOKED', `device ${deviceId} is revoked: it cannot be held`);
  const phone = await trx
    .selectFrom('host_phones')
    .select('approved_at')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  if (phone && phone.approved_at === null)
    throw conflict('PHONE_NOT_APPROVED', `phone ${deviceId} waits for approval: approve it before holding it`);
}

/** 接管: takes the phone, or refreshes the holder's own hold; someone else's hold refuses with its holder. */
export async function holdDevice(
  db: AdminDb,
  actor: AuditActor,
  holder: Holder,
  deviceId: string,
): Promise<DeviceHold> {
  const idleMs = await idleLimitMs(db);
  return writeTransaction(db, async (trx) => {
    await requireHoldable(trx, deviceId);
    const now = nowUtc();
    const current = await trx
      .selectFrom('device_holds')
      .selectAll()
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (current && current.held_by !== holder.username)
      throw conflict('DEVICE_HELD', `${current.held_by} holds this phone since ${current.since}`, {
        held_by: current.held_by,
      });
    const row = {
      device_id: deviceId,
      held_by: holder.username,
      session_sha256: holder.sessionIdSha256,
      since: current?.since ?? now,
      last_input_at: now,
    };
    await trx
      .insertInto('device_holds')
      .values(row)
      .onConflict((oc) =>
        oc.column('device_id').doUpdateSet({ session_sha256: row.session_sha256, last_input_at: now }),
      )
      .execute();
    if (!current)
      await recordAudit(trx, actor, {
        action: 'device.hold',
        target: { kind: 'device', id: deviceId },
        details: { from: now },
      });
    return view(row, idleMs);
  });
}

/** The holder's hold, its idle clock restarted; DEVICE_NOT_HELD for anyone else. */
export async function touchHold(db: AdminDb, username: string, deviceId: string): Promise<DeviceHold> {
  const idleMs = await idleLimitMs(db);
  return writeTransaction(db, async (trx) => {
    const current = await trx
      .selectFrom('device_holds')
      .selectAll()
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!current || current.held_by !== username)
      throw conflict(
        'DEVICE_NOT_HELD',
        current ? `${current.held_by} holds this phone, not you` : 'take the phone (POST …/hold) before sending input',
        current ? { held_by: current.held_by } : {},
      );
    const now = nowUtc();
    await trx.updateTable('device_holds').set({ last_input_at: now }).where('device_id', '=', deviceId).execute();
    return view({ ...current, last_input_at: now }, idleMs);
  });
}

async function endHold(trx: AdminDb, actor: AuditActor, deviceId: string, why: HoldEnd): Promise<boolean> {
  const row = await trx.selectFrom('device_holds').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
  if (!row) return false;
  await trx.deleteFrom('device_holds').where('device_id', '=', deviceId).execute();
  await recordAudit(trx, actor, {
    action: 'device.release',
    target: { kind: 'device', id: deviceId },
    details: { held_by: row.held_by, from: row.since, to: nowUtc(), why },
  });
  return true;
}

/** 释放 by the holder (button or page closed); DEVICE_NOT_HELD when someone else holds it. Releasing a free phone changes nothing. */
export async function releaseDevice(
  db: AdminDb,
  actor: AuditActor,
  username: string,
  deviceId: string,
  why: 'released' | 'page_closed',
): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('device_holds')
      .select('held_by')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!row) return;
    if (row.held_by !== username)
      throw conflict('DEVICE_NOT_HELD', `${row.held_by} holds this phone, not you`, { held_by: row.held_by });
    await endHold(trx, actor, deviceId, why);
  });
}

/** Ends every hold of a session (logout); returns the phones it freed. */
export async function releaseSessionHolds(trx: AdminDb, actor: AuditActor, sessionIdSha256: Buffer): Promise<string[]> {
  const rows = await trx
    .selectFrom('device_holds')
    .select('device_id')
    .where('session_sha256', '=', sessionIdSha256)
    .execute();
  for (const r of rows) await endHold(trx, actor, r.device_id, 'logout');
  return rows.map((r) => r.device_id);
}

const SYSTEM: AuditActor = { kind: 'system', name: 'device-holds' };

/**
 * The sweep the admin runs every few seconds: holds past the idle limit, of a session that has
 * ended (expired or deleted), or of a phone revoked since, end here. Returns the phones it freed.
 */
export async function releaseStaleHolds(db: AdminDb, now = new Date()): Promise<string[]> {
  const idleMs = await idleLimitMs(db);
  const rows = await db
    .selectFrom('device_holds')
    .leftJoin('sessions', 'sessions.id_sha256', 'device_holds.session_sha256')
    .innerJoin('device_credentials', 'device_credentials.device_id', 'device_holds.device_id')
    .select([
      'device_holds.device_id',
      'device_holds.last_input_at',
      'sessions.expires_at',
      'device_credentials.status',
    ])
    .execute();
  const stale = rows
    .map((r): { deviceId: string; why: HoldEnd | null } => ({
      deviceId: r.device_id,
      why:
        r.status !== 'ACTIVE'
          ? 'phone_revoked'
          : r.expires_at === null || Date.parse(r.expires_at) <= now.getTime()
            ? 'session_ended'
            : Date.parse(r.last_input_at) + idleMs <= now.getTime()
              ? 'idle'
              : null,
    }))
    .filter((r): r is { deviceId: string; why: HoldEnd } => r.why !== null);
  if (stale.length === 0) return [];
  return writeTransaction(db, async (trx) => {
    const freed: string[] = [];
    for (const s of stale) if (await endHold(trx, SYSTEM, s.deviceId, s.why)) freed.push(s.deviceId);
    return freed;
  });
}

/** Who holds each held phone, for 设备 and the workers' status answers. */
export async function holdersByDevice(db: AdminDb): Promise<Map<string, { held_by: string; since: string }>> {
  const rows = await db.selectFrom('device_holds').select(['device_id', 'held_by', 'since']).execute();
  return new Map(rows.map((r) => [r.device_id, { held_by: r.held_by, since: r.since }]));
}

export async function holderOf(db: AdminDb, deviceId: string): Promise<{ held_by: string; since: string } | null> {
  return (
    (await db
      .selectFrom('device_holds')
      .select(['held_by', 'since'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst()) ?? null
  );
}

/** Runs `releaseStaleHolds` every interval in the admin process; returns its stop. */
export function sweepStaleHolds(db: AdminDb, onError: (err: unknown) => void, intervalMs = 5_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    releaseStaleHolds(db)
      .catch(onError)
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
