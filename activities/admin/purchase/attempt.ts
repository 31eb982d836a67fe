import { randomUUID } from 'node:crypto';
import { writeTransaction, type AdminDb } from '../../../admin/db/database';
import { afterDryRunPassed, attentionAfterStop } from '../../../admin/devices/purchase-hooks';
import type { ClosedInterstitial } from '../../../domain/contracts/device-activities';
import { INTERSTITIAL_CLOSED } from '../../../domain/purchase-labels';
import { searchTextOf } from '../../../domain/catalog-search';
import type { GateReadings } from '../../../domain/purchase/gates';
import { nowUtc } from '../../../domain/time';
import { deviceStatus, nonRetryable, type TimelineEntry } from './shared';

/** The purchase attempt on a phone: begun once per authorization, then its progress to the final panel. */
export function attemptActivities(db: AdminDb) {
  return {
    async beginPurchaseAttempt(input: Parameters<typeof beginAttempt>[1]) {
      return beginAttempt(db, input);
    },
    async recordAttemptProgress(input: Parameters<typeof recordProgress>[1]) {
      return recordProgress(db, input);
    },
  };
}

/** One attempt per authorization, on an ACTIVE phone; a retry finds the one it made. */
async function beginAttempt(
  db: AdminDb,
  input: {
    taskId: string;
    authorizationId: string;
    deviceId: string;
    workflowId: string;
  },
): Promise<{ attemptId: string; deviceName?: string }> {
  return writeTransaction(db, async (trx) => {
    // a revoked phone is stopped here, before anything is opened on it
    const device = await deviceStatus(trx, input.deviceId);
    if (device !== 'ACTIVE')
      throw nonRetryable(`device ${input.deviceId} is ${device}: it may not purchase`, 'DEVICE_REVOKED');
    // its name for the Temporal Web UI (search attribute DeviceName)
    const named = await trx
      .selectFrom('device_credentials')
      .select('display_name')
      .where('device_id', '=', input.deviceId)
      .executeTakeFirst();
    const deviceName = named?.display_name ? { deviceName: named.display_name } : {};
    const existing = await trx
      .selectFrom('purchase_attempts')
      .select('id')
      .where('authorization_id', '=', input.authorizationId)
      .executeTakeFirst();
    if (existing) return { attemptId: existing.id, ...deviceName };
    const attemptId = randomUUID();
    const now = nowUtc();
    await trx
      .insertInto('purchase_attempts')
      .values({
        id: attemptId,
        task_id: input.taskId,
        authorization_id: input.authorizationId,
        device_id: input.deviceId,
        workflow_id: input.workflowId,
        status: 'RUNNING',
        step: 'claimed',
        started_at: now,
        timeline_json: '[]',
      })
      .execute();
    await trx
      .insertInto('task_claims')
      .values({ task_id: input.taskId, device_id: input.deviceId, claimed_at: now })
      // a task claimed again by the same phone (a new start after a reset) records the new claim's time
      .onConflict((oc) => oc.columns(['task_id', 'device_id']).doUpdateSet({ claimed_at: now }))
      .execute();
    return { attemptId, ...deviceName };
  });
}

/** Where the attempt is: its step, the gate readings, a failure, the goods' title and shop. */
async function recordProgress(
  db: AdminDb,
  input: {
    attemptId: string;
    step: string;
    readings?: Partial<GateReadings>;
    confirmedOptions?: Record<string, string>;
    /** what the goods page showed; fills the task's title and shop for the lists when unknown */
    goods?: { title: string | null; shopName: string | null };
    failure?: { code: string; detail: string; artifactRef?: string | null };
    status?: 'RUNNING' | 'STOPPED' | 'PASSED';
    /** interstitials the phone closed before the final panel: one timeline entry each */
    interstitials?: ClosedInterstitial[];
    /** with `dry_run_passed`: the PDD app version the phone read on this run (absent from older workflows) */
    appVersion?: string;
  },
): Promise<void> {
  const r = input.readings ?? {};
  if (input.interstitials && input.interstitials.length > 0)
    await recordInterstitials(db, input.attemptId, input.interstitials);
  await db
    .updateTable('purchase_attempts')
    .set({
      step: input.step,
      ...(r.gate1UnitPriceCent !== undefined ? { gate1_unit_price_cent: r.gate1UnitPriceCent } : {}),
      ...(r.gate2PanelTotalCent !== undefined ? { gate2_panel_total_cent: r.gate2PanelTotalCent } : {}),
      ...(r.gate3SubmitAmountCent !== undefined ? { gate3_submit_amount_cent: r.gate3SubmitAmountCent } : {}),
      ...(r.quantityRead !== undefined ? { quantity_read: r.quantityRead } : {}),
      ...(input.confirmedOptions ? { confirmed_options: JSON.stringify(input.confirmedOptions) } : {}),
      ...(input.failure
        ? {
            failure_code: input.failure.code,
            failure_detail: input.failure.detail,
            artifact_ref: input.failure.artifactRef ?? null,
          }
        : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.status === 'STOPPED' || input.status === 'PASSED' ? { finished_at: nowUtc() } : {}),
    })
    .where('id', '=', input.attemptId)
    .where('status', 'in', ['RUNNING', 'PASSED', 'STOPPED'])
    .execute();
  if (input.failure) await attentionAfterStop(db, input.attemptId, input.failure);
  if (input.step === 'dry_run_passed' && input.status === 'PASSED') {
    const attempt = await db
      .selectFrom('purchase_attempts')
      .select(['task_id', 'device_id'])
      .where('id', '=', input.attemptId)
      .executeTakeFirst();
    if (attempt) await afterDryRunPassed(db, attempt, input.appVersion);
  }
  if (input.goods) {
    const attempt = await db
      .selectFrom('purchase_attempts')
      .select('task_id')
      .where('id', '=', input.attemptId)
      .executeTakeFirst();
    if (attempt) {
      if (input.goods.title)
        await db
          .updateTable('tasks')
          .set({ title: input.goods.title, search_text: searchTextOf(input.goods.title) })
          .where('task_id', '=', attempt.task_id)
          .where('title', 'is', null)
          .execute();
      if (input.goods.shopName)
        await db
          .updateTable('tasks')
          .set({ shop_name: input.goods.shopName })
          .where('task_id', '=', attempt.task_id)
          .where('shop_name', 'is', null)
          .execute();
    }
  }
}

/**
 * One INTERSTITIAL_CLOSED timeline entry per popup the phone closed, so the operator sees every tap
 * that was not part of the purchase itself. Written once per attempt: a retried activity adds none.
 */
async function recordInterstitials(db: AdminDb, attemptId: string, closed: ClosedInterstitial[]): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const attempt = await trx
      .selectFrom('purchase_attempts')
      .select('timeline_json')
      .where('id', '=', attemptId)
      .executeTakeFirst();
    if (!attempt) return;
    const timeline = JSON.parse(attempt.timeline_json) as TimelineEntry[];
    if (timeline.some((e) => e.status === INTERSTITIAL_CLOSED)) return;
    const entries = closed.map((c): TimelineEntry => ({
      at: c.at,
      status: INTERSTITIAL_CLOSED,
      reason: null,
      detail: `interstitial ${c.name}`,
      actor: null,
      facts: { kind: 'interstitial_closed', interstitial: c.name },
    }));
    const merged = [...timeline, ...entries].sort((a, b) => a.at.localeCompare(b.at));
    await trx
      .updateTable('purchase_attempts')
      .set({ timeline_json: JSON.stringify(merged) })
      .where('id', '=', attemptId)
      .execute();
  });
}
