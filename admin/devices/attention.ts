import {
  isAttentionReason,
  type AttentionReason,
  type DeviceAttention,
  type DeviceClaimability,
} from '../../domain/devices';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { notFound } from '../../domain/api-error';
import { hostClaimRefusal, storeHealthReading, type HealthReading } from './health';
import { HEALTH_REFUSALS } from '../../domain/phone-health';
import type { PhoneAgentReport } from '../../domain/phone-agent';
import { holderOf } from './holds';

/**
 * Phones that need a person (docs/api.md §12.1): a phone with an attention row takes no
 * new claim — its worker asks `claimability` before every claim — until an operator resumes it.
 * A pause is the operator's reversible stop; a purchase that stops on a page only a person can
 * clear (logged out, captcha, risk check) sets it by itself, so the next queued task waits for a
 * healthy phone instead of failing on this one.
 */

/** Sets attention unless the phone already has one (the first reason is the one to clear). */
export async function setAttention(
  trx: AdminDb,
  deviceId: string,
  reason: AttentionReason,
  extra: { detail?: string | null; taskId?: string | null } = {},
): Promise<boolean> {
  const res = await trx
    .insertInto('device_attention')
    .values({
      device_id: deviceId,
      reason_code: reason,
      since: nowUtc(),
      detail: extra.detail ?? null,
      task_id: extra.taskId ?? null,
    })
    .onConflict((oc) => oc.column('device_id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function requireDevice(trx: AdminDb, deviceId: string): Promise<void> {
  const row = await trx
    .selectFrom('device_credentials')
    .select('status')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  if (!row || row.status !== 'ACTIVE') throw notFound('DEVICE_NOT_FOUND', `no active device ${deviceId}`);
}

/** 暂停: the phone finishes what it holds and takes nothing new. Pausing a paused phone changes nothing. */
export async function pauseDevice(db: AdminDb, actor: AuditActor, deviceId: string): Promise<DeviceAttention> {
  return writeTransaction(db, async (trx) => {
    await requireDevice(trx, deviceId);
    const set = await setAttention(trx, deviceId, 'PAUSED_BY_OPERATOR');
    const row = await trx
      .selectFrom('device_attention')
      .select(['reason_code', 'since'])
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      action: 'device.pause',
      target: { kind: 'device', id: deviceId },
      details: { already: !set, reason_code: row.reason_code },
    });
    return row;
  });
}

/**
 * 恢复 / 处理完毕，继续: asks the phone's worker for a fresh read of its screen; the stop stays
 * until that read shows no page only a person can clear (settleResumeCheck). The audit row keeps
 * which stop it was. A phone without a stop has nothing to check.
 */
export async function resumeDevice(
  db: AdminDb,
  actor: AuditActor,
  deviceId: string,
): Promise<{ checking: DeviceAttention | null }> {
  return writeTransaction(db, async (trx) => {
    await requireDevice(trx, deviceId);
    const row = await trx
      .selectFrom('device_attention')
      .select(['reason_code', 'since', 'task_id'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (row)
      await trx
        .updateTable('device_attention')
        .set({ check_requested_at: nowUtc() })
        .where('device_id', '=', deviceId)
        .execute();
    await recordAudit(trx, actor, {
      action: 'device.resume',
      target: { kind: 'device', id: deviceId },
      details: row ? { reason_code: row.reason_code, since: row.since, task_id: row.task_id } : { cleared: null },
    });
    return { checking: row ? { reason_code: row.reason_code, since: row.since } : null };
  });
}

export type ResumeVerdictReport = { ok: boolean; reason_code?: string | undefined; page: string };

const SYSTEM: AuditActor = { kind: 'system', name: 'resume-check' };

/**
 * The worker's fresh read after 处理完毕，继续: a clean screen clears the stop; a page only a person
 * can clear keeps it, under the reason the phone shows now. A read nobody asked for changes nothing.
 */
export async function settleResumeCheck(db: AdminDb, deviceId: string, verdict: ResumeVerdictReport): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('device_attention')
      .select(['reason_code', 'since', 'task_id', 'check_requested_at'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!row || row.check_requested_at === null) return;
    if (verdict.ok) await trx.deleteFrom('device_attention').where('device_id', '=', deviceId).execute();
    else
      await trx
        .updateTable('device_attention')
        .set({
          check_requested_at: null,
          reason_code:
            verdict.reason_code && isAttentionReason(verdict.reason_code) ? verdict.reason_code : row.reason_code,
          detail: `still on ${verdict.page}`.slice(0, 300),
        })
        .where('device_id', '=', deviceId)
        .execute();
    await recordAudit(trx, SYSTEM, {
      action: 'device.resume_checked',
      target: { kind: 'device', id: deviceId },
      details: { ok: verdict.ok, page: verdict.page, reason_code: row.reason_code, found: verdict.reason_code ?? null },
    });
  });
}

/** A worker reports every few seconds; one silent this long is not there to read the phone now. */
const WORKER_GONE_MS = 30_000;

/**
 * What became of a 处理完毕，继续: cleared, still blocked by what the phone shows, or not read yet.
 * Waits for the read only while the phone's worker reports; a phone without one stays stopped
 * until its worker is back and has read it.
 */
export async function awaitResumeVerdict(
  db: AdminDb,
  deviceId: string,
  timeoutMs: number,
): Promise<{ kind: 'cleared' } | { kind: 'blocked'; attention: DeviceAttention; page: string } | { kind: 'checking' }> {
  const seen = await db
    .selectFrom('devices')
    .select('last_seen_at')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  const live = seen !== undefined && Date.now() - Date.parse(seen.last_seen_at) < WORKER_GONE_MS;
  const deadline = Date.now() + (live ? timeoutMs : 0);
  for (;;) {
    const row = await db
      .selectFrom('device_attention')
      .select(['reason_code', 'since', 'detail', 'check_requested_at'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!row) return { kind: 'cleared' };
    if (row.check_requested_at === null)
      return { kind: 'blocked', attention: { reason_code: row.reason_code, since: row.since }, page: row.detail ?? '' };
    if (Date.now() >= deadline) return { kind: 'checking' };
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function attentionByDevice(db: AdminDb): Promise<Map<string, DeviceAttention>> {
  const rows = await db.selectFrom('device_attention').select(['device_id', 'reason_code', 'since']).execute();
  return new Map(rows.map((r) => [r.device_id, { reason_code: r.reason_code, since: r.since }]));
}

/**
 * The phone host's report before a claim and between claims: records its ADB state and answers
 * whether it may take a claim now. A revoked token never gets here (401 at the gate).
 */
export async function reportDeviceStatus(
  db: AdminDb,
  deviceId: string,
  status: { adb_connected: boolean; health?: HealthReading | undefined; agent?: PhoneAgentReport | undefined },
): Promise<DeviceClaimability> {
  if (status.health) await storeHealthReading(db, deviceId, status.health);
  if (status.agent) await storeAgentReport(db, deviceId, status.agent);
  // written only when it changes: every phone reports every few seconds, and the admin is the one writer
  const adb = status.adb_connected ? 1 : 0;
  await db
    .updateTable('devices')
    .set({ adb_connected: adb, adb_checked_at: nowUtc() })
    .where('device_id', '=', deviceId)
    .where((eb) => eb.or([eb('adb_connected', 'is', null), eb('adb_connected', '!=', adb)]))
    .execute();
  const row = await db
    .selectFrom('device_attention')
    .select(['reason_code', 'since', 'check_requested_at'])
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  const attention = row
    ? { reason_code: row.reason_code, since: row.since, check_requested: row.check_requested_at !== null }
    : null;
  // the phone host's side: waiting for approval, low battery, locked screen (admin/hosts/phones.ts)
  const blocked = await hostClaimRefusal(db, deviceId);
  // a person holding the phone from the admin (./holds.ts): automation waits
  const held = await holderOf(db, deviceId);
  return {
    claimable: attention === null && blocked === null && held === null && status.adb_connected,
    attention,
    held,
    ...(blocked ? { blocked: { reason_code: blocked, message: HEALTH_REFUSALS[blocked] } } : {}),
  };
}

/** The agent's state as last reported; written only when it changes, like the ADB state above. */
async function storeAgentReport(db: AdminDb, deviceId: string, agent: PhoneAgentReport): Promise<void> {
  const reason = agent.reason === null || agent.reason === '' ? null : agent.reason;
  await db
    .updateTable('devices')
    .set({ agent_state: agent.state, agent_reason: reason })
    .where('device_id', '=', deviceId)
    // SQLite's IS NOT: null-safe, so a first report and a reason going to or from null count as changes
    .where((eb) => eb.or([eb('agent_state', 'is not', agent.state), eb('agent_reason', 'is not', reason)]))
    .execute();
}
