import { randomUUID } from 'node:crypto';
import { writeTransaction, type AdminDb } from '../../../admin/db/database';
import { releaseGateAtFence } from '../../../admin/devices/purchase-hooks';
import type { FinalPanelReading } from '../../../domain/contracts/device-activities';
import { sameOptions } from '../../../domain/option-key';
import { allGates } from '../../../domain/purchase/gates';
import type { StopFacts } from '../../../domain/purchase/stop-facts';
import { nowUtc } from '../../../domain/time';
import { appendTimeline, deviceStatus } from './shared';

/** A refusal by the gates carries their facts: the stop's sentence for the operator. */
export type FenceDecision =
  | { clickPermitted: true; submissionId: string }
  | { clickPermitted: false; reason: string; detail: string; facts?: StopFacts };

/** The fence: the only submission row an authorization can ever have, and its abandonment when unanswered. */
export function fenceActivities(db: AdminDb) {
  return {
    /**
     * The server-side fence (docs/engineering.md, step 5): in ONE write transaction, re-check the
     * authorization, the task, the read-back and all three gates, then insert the only
     * submission row this authorization can ever have. Anything short of an explicit
     * `clickPermitted: true` means: do not tap.
     */
    async createSubmissionFence(input: FenceInput): Promise<FenceDecision> {
      return writeTransaction(db, async (trx) => (await refusal(trx, input)) ?? (await insertFence(trx, input)));
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
  };
}

interface FenceInput {
  taskId: string;
  authorizationId: string;
  attemptId: string;
  confirmation: FinalPanelReading;
}

/** Why the fence refuses, checked in its transaction; null when every check passed. */
async function refusal(trx: AdminDb, input: FenceInput): Promise<FenceDecision | null> {
  const refuse = (reason: string, detail: string, facts?: StopFacts): FenceDecision => ({
    clickPermitted: false,
    reason,
    detail,
    ...(facts ? { facts } : {}),
  });
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
  if (nowUtc() >= auth.expires_at) return refuse('FENCE_REFUSED', `authorization expired at ${auth.expires_at}`);
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
  const verdict = allGates(c, auth.quantity, auth.max_total_price_cent);
  if (!verdict.pass) return refuse('FENCE_REFUSED', `${verdict.reason}: ${verdict.detail}`, verdict.facts);
  const unreleased = await releaseGateAtFence(trx, input.attemptId, c.appVersion);
  if (unreleased) return refuse('APP_VERSION_NOT_RELEASED', unreleased);
  return null;
}

/** The only submission row the authorization can ever have, with the attempt and authorization FENCED. */
async function insertFence(trx: AdminDb, input: FenceInput): Promise<FenceDecision> {
  const c = input.confirmation;
  const auth = { id: input.authorizationId };
  const now = nowUtc();
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
}
