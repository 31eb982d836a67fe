import { z } from 'zod';
import type { DeviceLastError, DeviceView } from '../../domain/devices';
import { AGENT_NOT_REPORTED } from '../../domain/phone-agent';
import { reasonInfo } from '../../domain/purchase/reasons';
import { deviceTaskQueue } from '../../domain/task-queues';
import { nowUtc, parseUtcTimestamp, toUtcTimestamp } from '../../domain/time';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { AdminDb } from '../db/database';
import { noteAppVersionSeen } from '../devices/app-versions';
import { capabilitiesSchema, modelSchema, serialSchema, versionSchema } from '../devices/reported-fields';
import { attentionByDevice } from '../devices/attention';
import { phoneClaimStates } from '../devices/claimability';
import { claimBlockZh } from '../../domain/claimability';
import { PHONE_FAULT_CODES, phoneFaultZh } from '../../domain/device-faults';
import type { TemporalGateway } from '../temporal/gateway';

/**
 * While Temporal does not answer, a device counts as online when it registered or claimed
 * within this time (online is computed, never stored).
 */
const ONLINE_WITHIN_MS = 10 * 60_000;

/**
 * `POST /api/device/register`; unknown fields are accepted and ignored, for newer workers. What
 * is stored is checked (admin/devices/reported-fields.ts): printable, bounded, capabilities at
 * most 8 KB of JSON.
 */
export const deviceRegistrationSchema = z.object({
  serial: serialSchema,
  model: modelSchema(128),
  app_version: versionSchema(64),
  capabilities: capabilitiesSchema.default([]),
});
export type DeviceRegistration = z.infer<typeof deviceRegistrationSchema>;

/** Idempotent: the same device registering again updates what it reported. */
export async function registerDevice(
  db: AdminDb,
  deviceId: string,
  reg: DeviceRegistration,
): Promise<{ device_id: string; registered_at: string }> {
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
      oc.column('device_id').doUpdateSet({
        serial: reg.serial,
        model: reg.model,
        app_version: reg.app_version,
        capabilities_json: capabilities,
        last_seen_at: now,
        updated_at: now,
      }),
    )
    .execute();
  await noteAppVersionSeen(db, reg.app_version);
  return { device_id: deviceId, registered_at: now };
}

/** Any authenticated device call counts as a sign of life; at most one write a minute. */
export async function touchDevice(db: AdminDb, deviceId: string, now = new Date()): Promise<void> {
  const cutoff = toUtcTimestamp(new Date(now.getTime() - 60_000));
  await db
    .updateTable('devices')
    .set({ last_seen_at: toUtcTimestamp(now) })
    .where('device_id', '=', deviceId)
    .where('last_seen_at', '<', cutoff)
    .execute();
}

/**
 * Every active credential, registered or not, so a phone that was issued a token but never
 * came up shows as offline instead of being missing. Online comes from `presence` (the phone's
 * queue pollers in Temporal); `last_seen_at` decides only while Temporal does not answer.
 */
export async function listDevices(db: AdminDb, presence: DevicePresence, now = new Date()): Promise<DeviceView[]> {
  const rows = await db
    .selectFrom('device_credentials as c')
    .leftJoin('devices as d', 'd.device_id', 'c.device_id')
    .leftJoin('host_phones as hp', 'hp.device_id', 'c.device_id')
    .leftJoin('phone_hosts as h', 'h.host_id', 'hp.host_id')
    .select([
      'c.device_id',
      'c.display_name',
      'c.pdd_account',
      'h.display_name as host_name',
      'c.created_at',
      'd.app_version',
      'd.serial',
      'd.model',
      'd.last_seen_at',
      'd.adb_connected',
      'd.agent_state',
      'd.agent_reason',
    ])
    .where('c.status', '=', 'ACTIVE')
    .orderBy('c.display_name')
    .orderBy('c.device_id')
    .execute();
  // A phone is busy with the purchase task it has claimed and not yet let go of; the claim
  // began with the attempt of the task's current authorization.
  const busy = await db
    .selectFrom('tasks as t')
    .leftJoin('purchase_attempts as a', 'a.authorization_id', 't.authorization_id')
    .select(['t.device_id', 't.task_id', 'a.started_at'])
    .where('t.task_type', '=', 'purchase')
    .where('t.status', 'in', ['CLAIMED', 'ORDERING'])
    .where('t.device_id', 'is not', null)
    .execute();
  const taskOf = new Map(busy.map((t) => [t.device_id, t]));
  const lastErrors = await lastErrorsByDevice(db);
  const attention = await attentionByDevice(db);
  // the same rule a waiting task's 等待原因 and the claim check read: 设备 never judges on its own
  const blocks = new Map((await phoneClaimStates(db, now)).map((p) => [p.device_id, p.block]));
  // A phone waiting as 待批准 has no token and runs no worker (docs/phone-hosts.md), so Temporal
  // is not asked about it: what a host reports by itself costs 设备 no Temporal call.
  const pending = new Set(
    (await db.selectFrom('host_phones').select('device_id').where('approved_at', 'is', null).execute()).map(
      (p) => p.device_id,
    ),
  );
  const polls = await presence.lastPolls(
    rows.filter((r) => !pending.has(r.device_id)).map((r) => r.device_id),
    now,
  );
  const lastSeen = (at: string | null): Date | null => (at === null ? null : parseUtcTimestamp(at));
  return rows.map((r) => {
    const task = taskOf.get(r.device_id);
    const seen = polls ? (polls.get(r.device_id) ?? null) : lastSeen(r.last_seen_at);
    const window = polls ? POLLER_WINDOW_MS : ONLINE_WITHIN_MS;
    const block = blocks.get(r.device_id) ?? null;
    return {
      device_id: r.device_id,
      display_name: r.display_name,
      pdd_account: r.pdd_account,
      // a worker still polls Temporal while its phone is gone from ADB: that phone is offline
      online: seen !== null && now.getTime() - seen.getTime() <= window && r.adb_connected !== 0,
      online_source: polls ? 'temporal' : 'last_seen',
      app_version: r.app_version,
      current_task_id: task?.task_id ?? null,
      claimed_at: task?.started_at ?? null,
      last_error: lastErrors.get(r.device_id) ?? null,
      attention: attention.get(r.device_id) ?? null,
      claim_blocked_by: block === null ? null : { reason_code: block, reason_zh: claimBlockZh(block) },
      host_name: r.host_name,
      agent: r.agent_state ? { state: r.agent_state, reason: r.agent_reason } : AGENT_NOT_REPORTED,
      serial: r.serial,
      model: r.model,
      last_seen_at: r.last_seen_at,
      created_at: r.created_at,
    };
  });
}

/** The newest stopped purchase attempt of each device, with the operator's words for it. */
async function lastErrorsByDevice(db: AdminDb): Promise<Map<string, DeviceLastError>> {
  const rows = await db
    .selectFrom('purchase_attempts as a')
    .select(['a.device_id', 'a.task_id', 'a.failure_code', 'a.failure_detail', 'a.started_at', 'a.finished_at'])
    // only the phone's own faults (domain/device-faults.ts): a price gate is no phone's error
    .where('a.failure_code', 'in', [...PHONE_FAULT_CODES])
    .where((eb) =>
      eb(
        'a.started_at',
        '=',
        eb
          .selectFrom('purchase_attempts as b')
          .select((b) => b.fn.max('b.started_at').as('newest'))
          .whereRef('b.device_id', '=', 'a.device_id')
          .where('b.failure_code', 'in', [...PHONE_FAULT_CODES]),
      ),
    )
    .execute();
  const out = new Map<string, DeviceLastError>();
  for (const r of rows) {
    const code = r.failure_code ?? '';
    out.set(r.device_id, {
      code,
      reason_zh: phoneFaultZh(code) ?? reasonInfo(code).zh,
      detail: r.failure_detail,
      task_id: r.task_id,
      at: r.finished_at ?? r.started_at,
    });
  }
  return out;
}

/**
 * An idle worker's long poll on its queue ends after about a minute and is renewed at once, so
 * Temporal's last access time of a running phone is never much older than that; a stopped
 * worker drops out of this window (test/devices/devices.test.ts).
 */
export const POLLER_WINDOW_MS = 90_000;
/** One round of Temporal calls serves every page load within this time. */
const PRESENCE_CACHE_MS = 5_000;
/** A Temporal that does not answer within this is treated as down for the page. */
const PRESENCE_TIMEOUT_MS = 2_000;
/** Temporal calls of one presence round in flight at once. */
const PRESENCE_CONCURRENCY = 8;

type PollerSource = Pick<TemporalGateway, 'activityPollers'>;

/**
 * When each device's worker last polled its own queue `device/<id>`, from Temporal. A page load
 * waits for Temporal only for a device it has never asked about; otherwise it is answered from
 * what was learnt at most a cache period or one round ago, and a round for the stale ones runs
 * beside it (one at a time, a few calls at once). So a load of 设备 costs the same with 5 phones
 * or 500, however many tabs poll it.
 */
export class DevicePresence {
  private entries = new Map<string, { at: number; lastPoll: Date | null }>();
  private downUntil = 0;
  private round: Promise<boolean> | undefined;

  constructor(
    private readonly temporal: PollerSource,
    private readonly log: Logger,
  ) {}

  /** The newest poll per device (null: none seen), or null when Temporal did not answer. */
  async lastPolls(deviceIds: readonly string[], now = new Date()): Promise<Map<string, Date | null> | null> {
    const at = now.getTime();
    if (at < this.downUntil) return null;
    const kept = new Set(deviceIds);
    for (const id of this.entries.keys()) if (!kept.has(id)) this.entries.delete(id);
    const stale = deviceIds.filter((id) => {
      const e = this.entries.get(id);
      return !e || at - e.at > PRESENCE_CACHE_MS || e.at > at;
    });
    const unseen = stale.some((id) => !this.entries.has(id));
    if (stale.length > 0 && this.round === undefined) {
      this.round = this.ask(stale, at).finally(() => (this.round = undefined));
    }
    // never asked about: this answer waits for the round (the one under way, then its own)
    if (unseen) {
      if (!(await this.round)) return null;
      const missing = deviceIds.filter((id) => !this.entries.has(id));
      if (missing.length > 0 && !(await this.ask(missing, at))) return null;
    }
    return new Map(deviceIds.map((id) => [id, this.entries.get(id)?.lastPoll ?? null]));
  }

  /** One round of Temporal calls for `ids`; false (and Temporal counted down for a while) when it did not answer. */
  private async ask(ids: readonly string[], at: number): Promise<boolean> {
    try {
      // a few at a time: many approved phones make a longer round, never a burst at Temporal
      for (let i = 0; i < ids.length; i += PRESENCE_CONCURRENCY) {
        const fresh = await Promise.all(
          ids.slice(i, i + PRESENCE_CONCURRENCY).map(async (id) => {
            const pollers = await this.temporal.activityPollers(deviceTaskQueue(id), PRESENCE_TIMEOUT_MS);
            const times = pollers.flatMap((p) => (p.lastAccessTime ? [p.lastAccessTime.getTime()] : []));
            return [id, times.length > 0 ? new Date(Math.max(...times)) : null] as const;
          }),
        );
        for (const [id, lastPoll] of fresh) this.entries.set(id, { at, lastPoll });
      }
      return true;
    } catch (err) {
      // Remembered for as long as an answer would be, so a page of devices waits for a down
      // Temporal at most once per cache period.
      this.downUntil = at + PRESENCE_CACHE_MS;
      this.log.warn(
        { err: describeError(err) },
        'device presence from Temporal unavailable; online falls back to last_seen_at',
      );
      return false;
    }
  }
}

const presences = new WeakMap<PollerSource, DevicePresence>();

/** The one DevicePresence of an admin's Temporal client, shared by the 设备 page and /metrics. */
export function devicePresence(temporal: PollerSource, log: Logger): DevicePresence {
  let presence = presences.get(temporal);
  if (!presence) {
    presence = new DevicePresence(temporal, log);
    presences.set(temporal, presence);
  }
  return presence;
}

/** The setting (`diagnostics.retention_days`, docs/architecture.md §5.3) phone hosts apply to failure artifacts. */
const ARTIFACT_RETENTION_DAYS_DEFAULT = 14;

/**
 * Settings a phone host takes from the admin with each registration, so operators change them
 * on 设置 instead of on every phone host.
 */
export async function phoneHostSettings(db: AdminDb): Promise<{ artifact_retention_days: number }> {
  const row = await db
    .selectFrom('app_settings')
    .select('value_json')
    .where('setting_key', '=', 'diagnostics.retention_days')
    .executeTakeFirst();
  const value: unknown = row ? JSON.parse(row.value_json) : ARTIFACT_RETENTION_DAYS_DEFAULT;
  const days =
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 3650
      ? value
      : ARTIFACT_RETENTION_DAYS_DEFAULT;
  return { artifact_retention_days: days };
}
