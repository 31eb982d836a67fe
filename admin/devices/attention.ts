import type { AttentionReason, DeviceAttention, DeviceClaimability } from '../../domain/devices';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { notFound } from '../../domain/api-error';
import { hostClaimRefusal, storeHealthReading, type HealthReading } from './health';
import { HEALTH_REFUSALS } from '../../domain/phone-health';
import type { PhoneAgentReport } from '../../domain/phone-agent';

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

/** 恢复: clears whatever attention the phone had; the audit row keeps which one. */
export async function resumeDevice(
  db: AdminDb,
  actor: AuditActor,
  deviceId: string,
): Promise<{ cleared: DeviceAttention | null }> {
  return writeTransaction(db, async (trx) => {
    await requireDevice(trx, deviceId);
    const row = await trx
      .selectFrom('device_attention')
      .select(['reason_code', 'since', 'task_id'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (row) await trx.deleteFrom('device_attention').where('device_id', '=', deviceId).execute();
    await recordAudit(trx, actor, {
      action: 'device.resume',
      target: { kind: 'device', id: deviceId },
      details: row ? { reason_code: row.reason_code, since: row.since, task_id: row.task_id } : { cleared: null },
    });
    return { cleared: row ? { reason_code: row.reason_code, since: row.since } : null };
  });
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
    .select(['reason_code', 'since'])
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  const attention = row ?? null;
  // the phone host's side: waiting for approval, low battery, locked screen (admin/hosts/phones.ts)
  const blocked = await hostClaimRefusal(db, deviceId);
  return {
    claimable: attention === null && blocked === null && status.adb_connected,
    attention,
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
