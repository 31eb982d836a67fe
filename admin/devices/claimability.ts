import type { ClaimBlock, WaitingFor } from '../../domain/claimability';
import { clearsByItself } from '../../domain/claimability';
import { healthRefusal, type HealthRefusal } from '../../domain/phone-health';
import { parseUtcTimestamp } from '../../domain/time';
import type { AdminDb } from '../db/database';
import { isProfiled, profiledVersions } from './health';

/**
 * Can each phone take a waiting purchase now, and if not why: the one rule behind a task's
 * 等待原因 (`waiting_for`), the start's NO_PHONE_CAN_CLAIM and the release gate's warning
 * before a live purchase. It reads what the phone's own claim check reads (./attention.ts
 * `reportDeviceStatus`: 需处理 or paused, a hold, the host's health and approval) and adds what
 * only the admin knows: whether the phone is there at all, whether it holds another task, and
 * for a live purchase whether its PDD version was released (./app-versions.ts).
 */

/**
 * A working phone's worker reports its status every few seconds and each report counts as a
 * sign of life at most once a minute (admin/auth/gate.ts): silent longer than this, it is gone.
 */
const CLAIM_ONLINE_WITHIN_MS = 3 * 60_000;

/** A phone as the claim rule sees it. */
export interface PhoneClaimState {
  device_id: string;
  display_name: string;
  /** the PDD version it last read (health) or registered with; null: never said */
  app_version: string | null;
  /** approved for automation: a host's phone waiting as 待批准 is not */
  approved: boolean;
  /** why it takes no purchase now, a live purchase aside; null: it may */
  block: ClaimBlock | null;
  /** its PDD version is released for live purchases */
  released: boolean;
}

const HEALTH_BLOCKS: Record<HealthRefusal, ClaimBlock> = {
  LOW_BATTERY: 'BATTERY_LOW',
  SCREEN_LOCKED: 'SCREEN_LOCKED',
  LOW_STORAGE: 'STORAGE_LOW',
  APP_VERSION_UNPROFILED: 'APP_VERSION_UNPROFILED',
  PHONE_PENDING: 'DEVICE_PENDING',
};

/** Every phone with an active credential, by display name. */
export async function phoneClaimStates(db: AdminDb, now = new Date()): Promise<PhoneClaimState[]> {
  const rows = await db
    .selectFrom('device_credentials as c')
    .leftJoin('devices as d', 'd.device_id', 'c.device_id')
    .leftJoin('host_phones as p', 'p.device_id', 'c.device_id')
    .leftJoin('device_attention as a', 'a.device_id', 'c.device_id')
    .leftJoin('device_holds as h', 'h.device_id', 'c.device_id')
    .leftJoin('device_health as dh', 'dh.device_id', 'c.device_id')
    .select([
      'c.device_id',
      'c.display_name',
      'd.app_version as registered_version',
      'd.last_seen_at',
      'd.adb_connected',
      'p.device_id as host_phone',
      'p.approved_at',
      'a.reason_code as attention',
      'h.held_by',
      'dh.battery_level',
      'dh.charging',
      'dh.screen',
      'dh.free_storage_mb',
      'dh.app_version as read_version',
    ])
    .where('c.status', '=', 'ACTIVE')
    .orderBy('c.display_name')
    .orderBy('c.device_id')
    .execute();
  const busy = new Set(
    (
      await db
        .selectFrom('tasks')
        .select('device_id')
        .where('task_type', '=', 'purchase')
        .where('status', 'in', ['CLAIMED', 'ORDERING'])
        .where('device_id', 'is not', null)
        .execute()
    ).map((t) => t.device_id),
  );
  const released = new Set(
    (await db.selectFrom('app_versions').select('app_version').where('released_at', 'is not', null).execute()).map(
      (v) => v.app_version,
    ),
  );
  const profiles = await profiledVersions(db);
  return rows.map((r) => {
    const approved = r.host_phone === null || r.approved_at !== null;
    const version = r.read_version ?? r.registered_version ?? null;
    const seen = r.last_seen_at === null ? null : parseUtcTimestamp(r.last_seen_at);
    const online = seen !== null && now.getTime() - seen.getTime() <= CLAIM_ONLINE_WITHIN_MS && r.adb_connected !== 0;
    const health =
      r.battery_level !== null && r.charging !== null && r.screen !== null && r.free_storage_mb !== null
        ? healthRefusal(
            {
              battery_level: r.battery_level,
              charging: r.charging === 1,
              screen: r.screen,
              free_storage_mb: r.free_storage_mb,
            },
            isProfiled(profiles, r.device_id, r.read_version),
          )
        : null;
    return {
      device_id: r.device_id,
      display_name: r.display_name,
      app_version: version,
      approved,
      block: blockOf({
        approved,
        attention: r.attention,
        held: r.held_by !== null,
        online,
        health,
        busy: busy.has(r.device_id),
      }),
      released: version !== null && released.has(version),
    };
  });
}

/** The first reason that applies, in the order a person would clear them. */
function blockOf(s: {
  approved: boolean;
  attention: string | null;
  held: boolean;
  online: boolean;
  health: HealthRefusal | null;
  busy: boolean;
}): ClaimBlock | null {
  if (!s.approved) return 'DEVICE_PENDING';
  if (s.attention === 'PAUSED_BY_OPERATOR') return 'DEVICE_PAUSED';
  if (s.attention !== null) return 'DEVICE_NEEDS_ATTENTION';
  if (s.held) return 'DEVICE_HELD';
  if (!s.online) return 'DEVICE_OFFLINE';
  if (s.health !== null) return HEALTH_BLOCKS[s.health];
  return s.busy ? 'DEVICE_BUSY' : null;
}

/** Why `phone` cannot take a purchase in `mode` now; null: it can. A busy phone's version matters more than its task. */
function claimBlockFor(phone: PhoneClaimState, mode: 'live' | 'dry_run'): ClaimBlock | null {
  const live = mode === 'live' && phone.approved && !phone.released ? 'APP_VERSION_NOT_RELEASED' : null;
  if (phone.block === null || phone.block === 'DEVICE_BUSY') return live ?? phone.block;
  return phone.block;
}

/**
 * Who a waiting purchase in `mode` waits for: nobody (`waiting_for` empty) while a phone is
 * free; else every phone and why not. `stuck`: no phone will take it without a person — none
 * at all, or none that is only busy.
 */
export function waitingFor(
  phones: readonly PhoneClaimState[],
  mode: 'live' | 'dry_run',
): { waiting_for: WaitingFor[]; stuck: boolean } {
  const blocked = phones.map((p) => ({
    device_id: p.device_id,
    display_name: p.display_name,
    reason_code: claimBlockFor(p, mode),
  }));
  if (blocked.some((b) => b.reason_code === null)) return { waiting_for: [], stuck: false };
  const waiting = blocked as WaitingFor[];
  return { waiting_for: waiting, stuck: !waiting.some((w) => clearsByItself(w.reason_code)) };
}

/**
 * The release gate, before a live purchase: the approved phones when none of them runs a
 * released PDD version (then no live purchase could be submitted today), with their versions;
 * null when one does, or when there is no approved phone at all (nothing to release yet).
 */
export function unreleasedPhones(
  phones: readonly PhoneClaimState[],
): Array<{ display_name: string; app_version: string | null }> | null {
  const approved = phones.filter((p) => p.approved);
  if (approved.length === 0 || approved.some((p) => p.released)) return null;
  return approved.map((p) => ({ display_name: p.display_name, app_version: p.app_version }));
}
