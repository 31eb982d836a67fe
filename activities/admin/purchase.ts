import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { recordAudit } from '../../admin/audit/audit';
import { recordPurchaseTransition } from '../../admin/metrics/metrics';
import { writeTransaction, type AdminDb } from '../../admin/db/database';
import type { AuthorizationStatus } from '../../admin/db/tables/purchase';
import {
  afterStatusRecorded,
  attentionAfterStop,
  releaseGateAtFence,
  stopReason,
} from '../../admin/devices/purchase-hooks';
import type { ClosedInterstitial, FinalPanelReading } from '../../domain/contracts/device-activities';
import { INTERSTITIAL_CLOSED } from '../../domain/purchase-labels';
import { searchTextOf } from '../../domain/catalog-search';
import { sameOptions } from '../../domain/option-key';
import { allGates, type GateReadings } from '../../domain/purchase/gates';
import { purchaseResultSchema, type PurchaseResult } from '../../domain/purchase/schemas';
import type { PurchaseStatus } from '../../domain/purchase/status';
import { canTransition, isTerminal } from '../../domain/purchase/state-machine';
import { nowUtc } from '../../domain/time';

export interface RecordStatusInput {
  taskId: string;
  authorizationId: string;
  to: PurchaseStatus;
  reasonCode?: string | null;
  detail?: string;
  deviceId?: string;
  orderNo?: string;
  /** set when an operator asked for the change (audit log) */
  actor?: string;
  /** the operator request's update id, kept in the audit row so a retried request finds its answer */
  requestId?: string;
}

export type FenceDecision =
  { clickPermitted: true; submissionId: string } | { clickPermitted: false; reason: string; detail: string };

/** How an authorization moves with its task. */
const AUTHORIZATION_FOR: Partial<Record<PurchaseStatus, AuthorizationStatus>> = {
  CLAIMED: 'CLAIMED',
  DRAFT: 'EXPIRED',
  NEEDS_MANUAL: 'ABANDONED',
  CANCELED: 'ABANDONED',
  DRY_RUN_PASSED: 'CONSUMED',
  WAITING_PAYMENT: 'CONSUMED',
  RECONCILIATION_REQUIRED: 'CONSUMED',
};

/** An error a retry cannot heal: the workflow turns it into a stop (before the fence) or 待核对 (after). */
const nonRetryable = (message: string, type: string) => ApplicationFailure.nonRetryable(message, type);

/**
 * The admin side of the purchase workflow. Each activity is idempotent (a retry after a lost
 * response changes nothing) and refuses to act for an authorization that is not the task's
 * current one, so a stale workflow can never move a task it no longer owns.
 */
export function purchaseActivities(db: AdminDb) {
  return {
    async recordPurchaseStatus(input: RecordStatusInput): Promise<void> {
      await writeTransaction(db, async (trx) => {
        const task = await trx.selectFrom('tasks').selectAll().where('task_id', '=', input.taskId).executeTakeFirst();
        if (!task || task.task_type !== 'purchase')
          throw nonRetryable(`task ${input.taskId} not found`, 'TASK_NOT_FOUND');
        if (task.authorization_id !== input.authorizationId) {
          // The write back to DRAFT clears the task's authorization: its retry finds it gone.
          if (input.to === 'DRAFT' && (await closedAuthorization(trx, input.authorizationId))) return;
          throw nonRetryable(`task ${input.taskId} belongs to another authorization now`, 'STALE_AUTHORIZATION');
        }
        const from = task.status as PurchaseStatus;
        if (from === input.to) return; // a replayed write
        if (!canTransition(from, input.to))
          throw nonRetryable(`task ${input.taskId}: ${from} → ${input.to} is not allowed`, 'ILLEGAL_TRANSITION');
        const now = nowUtc();
        const reasonCode = await stopReason(trx, input.authorizationId, input.reasonCode);
        await trx
          .updateTable('tasks')
          .set({
            status: input.to,
            version: task.version + 1,
            updated_at: now,
            ...(reasonCode !== undefined ? { reason_code: reasonCode } : {}),
            ...(input.deviceId !== undefined ? { device_id: input.deviceId } : {}),
            ...(input.orderNo !== undefined ? { pdd_order_no: input.orderNo } : {}),
            ...(isTerminal(input.to) ? { finished_at: now } : {}),
            // a task back in DRAFT needs a new authorization: the old one is never revived
            ...(input.to === 'DRAFT' ? { authorization_id: null } : {}),
          })
          .where('task_id', '=', input.taskId)
          .execute();
        const authStatus = AUTHORIZATION_FOR[input.to];
        if (authStatus) {
          await trx
            .updateTable('order_authorizations')
            .set({ status: authStatus, ...(authStatus === 'CLAIMED' ? {} : { closed_at: now }) })
            .where('id', '=', input.authorizationId)
            .where('status', 'not in', ['CONSUMED', 'EXPIRED', 'ABANDONED'])
            .execute();
        }
        await afterStatusRecorded(trx, input.to, {
          task_id: input.taskId,
          device_id: input.deviceId ?? task.device_id,
        });
        await appendTimeline(trx, input.authorizationId, {
          at: now,
          status: input.to,
          reason: reasonCode ?? null,
          detail: input.detail ?? null,
          actor: input.actor ?? null,
        });
        if (input.actor) {
          await recordAudit(
            trx,
            { kind: 'operator', name: input.actor },
            {
              action: `task.${input.to.toLowerCase()}`,
              target: { kind: 'task', id: input.taskId },
              details: {
                from,
                to: input.to,
                authorization_id: input.authorizationId,
                ...(input.orderNo ? { order_no: input.orderNo } : {}),
                ...(input.requestId ? { request_id: input.requestId } : {}),
              },
            },
          );
        }
        recordPurchaseTransition({
          from,
          to: input.to,
          reasonCode,
          startedAt: task.started_at,
          byOperator: input.actor !== undefined,
        });
      });
    },

    async beginPurchaseAttempt(input: {
      taskId: string;
      authorizationId: string;
      deviceId: string;
      workflowId: string;
    }): Promise<{ attemptId: string; deviceName?: string }> {
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
            started_at: nowUtc(),
            timeline_json: '[]',
          })
          .execute();
        await trx
          .insertInto('task_claims')
          .values({ task_id: input.taskId, device_id: input.deviceId, claimed_at: nowUtc() })
          .onConflict((oc) => oc.doNothing())
          .execute();
        return { attemptId, ...deviceName };
      });
    },

    async recordAttemptProgress(input: {
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
    }): Promise<void> {
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
    },

    /**
     * The server-side fence (docs/engineering.md, step 5): in ONE write transaction, re-check the
     * authorization, the task, the read-back and all three gates, then insert the only
     * submission row this authorization can ever have. Anything short of an explicit
     * `clickPermitted: true` means: do not tap.
     */
    async createSubmissionFence(input: {
      taskId: string;
      authorizationId: string;
      attemptId: string;
      confirmation: FinalPanelReading;
    }): Promise<FenceDecision> {
      return writeTransaction(db, async (trx) => {
        const refuse = (reason: string, detail: string): FenceDecision => ({ clickPermitted: false, reason, detail });
        const auth = await trx
          .selectFrom('order_authorizations')
          .selectAll()
          .where('id', '=', input.authorizationId)
          .executeTakeFirst();
        if (!auth || auth.task_id !== input.taskId) return refuse('FENCE_REFUSED', 'unknown authorization');
        const existing = await trx
          .selectFrom('order_submissions')
          .select(['id', 'attempt_id'])
          .where('authorization_id', '=', auth.id)
          .executeTakeFirst();
        if (existing) return refuse('FENCE_REFUSED', `authorization already has submission ${existing.id}`);
        if (auth.execution_mode !== 'live') return refuse('FENCE_REFUSED', 'a dry run never gets a fence');
        if (auth.status !== 'CLAIMED') return refuse('FENCE_REFUSED', `authorization is ${auth.status}`);
        const now = nowUtc();
        if (now >= auth.expires_at) return refuse('FENCE_REFUSED', `authorization expired at ${auth.expires_at}`);
        const task = await trx
          .selectFrom('tasks')
          .select(['status', 'authorization_id'])
          .where('task_id', '=', input.taskId)
          .executeTakeFirst();
        if (!task || task.authorization_id !== auth.id || task.status !== 'ORDERING')
          return refuse('FENCE_REFUSED', `task is ${task?.status ?? 'missing'}`);
        const attempt = await trx
          .selectFrom('purchase_attempts')
          .select(['authorization_id', 'status', 'device_id'])
          .where('id', '=', input.attemptId)
          .executeTakeFirst();
        if (!attempt || attempt.authorization_id !== auth.id || attempt.status !== 'RUNNING')
          return refuse('FENCE_REFUSED', 'attempt does not match');
        const device = await deviceStatus(trx, attempt.device_id);
        if (device !== 'ACTIVE') return refuse('DEVICE_REVOKED', `device ${attempt.device_id} is ${device}`);

        const c = input.confirmation;
        if (!sameOptions(c.options, JSON.parse(auth.pdd_options) as Record<string, string>))
          return refuse('FENCE_REFUSED', 'options read back differ from the authorization');
        const verdict = allGates(c, auth.quantity, auth.total_price_cap_cent);
        if (!verdict.pass) return refuse('FENCE_REFUSED', `${verdict.reason}: ${verdict.detail}`);
        const unreleased = await releaseGateAtFence(trx, input.attemptId, c.appVersion);
        if (unreleased) return refuse('APP_VERSION_NOT_RELEASED', unreleased);

        const submissionId = randomUUID();
        await trx
          .insertInto('order_submissions')
          .values({
            id: submissionId,
            task_id: input.taskId,
            authorization_id: auth.id,
            attempt_id: input.attemptId,
            status: 'FENCED',
            gate1_unit_price_cent: c.gate1UnitPriceCent!,
            gate2_panel_total_cent: c.gate2PanelTotalCent!,
            quantity_read: c.quantityRead!,
            gate3_submit_amount_cent: c.gate3SubmitAmountCent!,
            created_at: now,
          })
          .execute();
        await trx.updateTable('order_authorizations').set({ status: 'FENCED' }).where('id', '=', auth.id).execute();
        await trx
          .updateTable('purchase_attempts')
          .set({ status: 'FENCED', step: 'fenced' })
          .where('id', '=', input.attemptId)
          .execute();
        await appendTimeline(trx, auth.id, {
          at: now,
          status: 'FENCED',
          reason: null,
          detail: `submission ${submissionId}`,
          actor: null,
        });
        return { clickPermitted: true, submissionId };
      });
    },

    /**
     * The workflow got no answer from the fence and will never call submitOnce for this
     * authorization: a row the fence may have committed is marked as never tapped.
     */
    async abandonUntappedFence(input: { authorizationId: string }): Promise<void> {
      await db
        .updateTable('order_submissions')
        .set({ abandoned_at: nowUtc() })
        .where('authorization_id', '=', input.authorizationId)
        .where('status', '=', 'FENCED')
        .where('order_submitted_at', 'is', null)
        .where('abandoned_at', 'is', null)
        .execute();
    },

    async recordSubmissionTapped(input: { submissionId: string; tappedAt: string }): Promise<void> {
      await db
        .updateTable('order_submissions')
        .set({ order_submitted_at: input.tappedAt })
        .where('id', '=', input.submissionId)
        .where('order_submitted_at', 'is', null)
        .execute();
    },

    async recordSubmissionOutcome(input: {
      submissionId: string;
      status: 'SUBMITTED' | 'RECONCILIATION_REQUIRED' | 'MANUAL_RESOLVED';
      orderNo?: string | null;
      /** when the matched order was placed, UTC */
      orderedAt?: string | null;
    }): Promise<void> {
      await writeTransaction(db, async (trx) => {
        const sub = await trx
          .selectFrom('order_submissions')
          .select(['status', 'attempt_id'])
          .where('id', '=', input.submissionId)
          .executeTakeFirstOrThrow();
        if (sub.status === 'MANUAL_RESOLVED') return;
        const now = nowUtc();
        await trx
          .updateTable('order_submissions')
          .set({
            status: input.status,
            ...(input.orderNo ? { order_no: input.orderNo } : {}),
            ...(input.orderedAt ? { ordered_at: input.orderedAt } : {}),
            ...(input.status === 'MANUAL_RESOLVED' ? { resolved_at: now } : {}),
          })
          .where('id', '=', input.submissionId)
          .execute();
        const attemptStatus =
          input.status === 'SUBMITTED'
            ? 'SUBMITTED'
            : input.status === 'MANUAL_RESOLVED'
              ? 'RESOLVED'
              : 'RECONCILIATION_REQUIRED';
        await trx
          .updateTable('purchase_attempts')
          .set({ status: attemptStatus, finished_at: now })
          .where('id', '=', sub.attempt_id)
          .execute();
      });
    },

    /** The `purchase` object of the task's result, validated before it is stored. */
    async savePurchaseResult(input: { taskId: string; attemptId: string; purchase: PurchaseResult }): Promise<void> {
      const parsed = purchaseResultSchema.safeParse(input.purchase);
      if (!parsed.success)
        throw nonRetryable(`purchase result invalid: ${parsed.error.message}`, 'PURCHASE_RESULT_INVALID');
      const json = JSON.stringify(parsed.data);
      await writeTransaction(db, async (trx) => {
        await trx
          .updateTable('purchase_attempts')
          .set({ purchase_json: json })
          .where('id', '=', input.attemptId)
          .execute();
        await trx
          .updateTable('tasks')
          .set({ result_data: JSON.stringify({ schema_version: 1, purchase: parsed.data }), updated_at: nowUtc() })
          .where('task_id', '=', input.taskId)
          .execute();
      });
    },
  };
}

/** ACTIVE, REVOKED, or UNKNOWN for a device the admin never issued a token to. */
async function deviceStatus(trx: AdminDb, deviceId: string): Promise<'ACTIVE' | 'REVOKED' | 'UNKNOWN'> {
  const row = await trx
    .selectFrom('device_credentials')
    .select('status')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row?.status ?? 'UNKNOWN';
}

async function closedAuthorization(trx: AdminDb, authorizationId: string): Promise<boolean> {
  const auth = await trx
    .selectFrom('order_authorizations')
    .select('status')
    .where('id', '=', authorizationId)
    .executeTakeFirst();
  return auth?.status === 'EXPIRED' || auth?.status === 'ABANDONED';
}

interface TimelineEntry {
  at: string;
  status: string;
  reason: string | null;
  detail: string | null;
  actor: string | null;
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
    const entries = closed.map((c) => ({
      at: c.at,
      status: INTERSTITIAL_CLOSED,
      reason: null,
      detail: `interstitial ${c.name}`,
      actor: null,
    }));
    const merged = [...timeline, ...entries].sort((a, b) => a.at.localeCompare(b.at));
    await trx
      .updateTable('purchase_attempts')
      .set({ timeline_json: JSON.stringify(merged) })
      .where('id', '=', attemptId)
      .execute();
  });
}

async function appendTimeline(trx: AdminDb, authorizationId: string, entry: TimelineEntry): Promise<void> {
  const attempt = await trx
    .selectFrom('purchase_attempts')
    .select(['id', 'timeline_json'])
    .where('authorization_id', '=', authorizationId)
    .executeTakeFirst();
  if (!attempt) return;
  const timeline = JSON.parse(attempt.timeline_json) as TimelineEntry[];
  timeline.push(entry);
  await trx
    .updateTable('purchase_attempts')
    .set({ timeline_json: JSON.stringify(timeline) })
    .where('id', '=', attempt.id)
    .execute();
}
