import { randomUUID } from 'node:crypto';
import { searchTextOf } from '../../domain/catalog-search';
import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import { ATTEMPT_STATES, AUTHORIZATION_STATES, SUBMISSION_STATES } from '../../domain/purchase/record-states';
import { isTerminal } from '../../domain/purchase/state-machine';
import type { PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import { nowUtc } from '../../domain/time';
import { recordAudit } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { catchUpVerdict, movesAfter, type CatchUpVerdict, type CaughtPurchase } from './catch-up-rules';

/** Who the catch-up's rows and audit entries name. */
export const CATCH_UP_ACTOR = { kind: 'system', name: 'restore-catch-up' } as const;

export interface CaughtWorkflow {
  workflowId: string;
  input: PurchaseWorkflowInput;
  startedAt: string;
  caught: CaughtPurchase;
  /** the phone its search attribute names, when no write named it yet */
  deviceId: string | null;
}

/**
 * Brings one purchase's task, authorization, attempt and submission in line with what its
 * workflow wrote, in one transaction with its `task.catch_up` audit row. The verdict is taken
 * again inside the transaction: an earlier workflow of the same task may just have moved it, and a
 * task ahead of the workflow is left as it is. Answers the verdict it acted on.
 */
export async function writeCaughtUp(db: AdminDb, w: CaughtWorkflow): Promise<CatchUpVerdict> {
  const { input, caught } = w;
  return writeTransaction(db, async (trx) => {
    const task = await trx
      .selectFrom('tasks')
      .select(['status', 'authorization_id', 'version'])
      .where('task_id', '=', input.taskId)
      .executeTakeFirst();
    const auth = await trx
      .selectFrom('order_authorizations')
      .select(['status'])
      .where('id', '=', input.authorizationId)
      .executeTakeFirst();
    const verdict = catchUpVerdict(
      task ? { status: task.status, authorizationId: task.authorization_id } : null,
      auth !== undefined,
      input.authorizationId,
      caught,
    );
    if (verdict === 'in-line' || verdict === 'ahead') return verdict;
    const now = nowUtc();
    const holdsIt = task?.authorization_id === input.authorizationId;
    const from = task ? (holdsIt ? task.status : 'DRAFT') : null;
    // the task held an older authorization the database never saw closed: the workflow's start replaced it
    if (task?.authorization_id && !holdsIt)
      await trx
        .updateTable('order_authorizations')
        .set({ status: 'ABANDONED', closed_at: now })
        .where('id', '=', task.authorization_id)
        .where('status', 'not in', AUTHORIZATION_STATES.terminal)
        .execute();
    await writeTask(trx, w, task ?? null, now);
    await writeAuthorization(trx, w, auth?.status ?? null);
    await writeAttempt(trx, w, holdsIt ? task.status : null);
    await writeSubmission(trx, w);
    await recordAudit(trx, CATCH_UP_ACTOR, {
      action: 'task.catch_up',
      target: { kind: 'task', id: input.taskId },
      details: {
        from,
        to: caught.status,
        recreated: task === undefined,
        authorization_id: input.authorizationId,
        workflow_id: w.workflowId,
        ...(caught.submission ? { submission_id: caught.submission.id } : {}),
        ...(caught.pddOrderNo ? { pdd_order_no: caught.pddOrderNo } : {}),
      },
    });
    return verdict;
  });
}

async function writeTask(
  trx: AdminDb,
  { workflowId, input, startedAt, caught, deviceId }: CaughtWorkflow,
  task: { version: number } | null,
  now: string,
): Promise<void> {
  const draft = caught.status === 'DRAFT';
  const fields = {
    status: caught.status,
    // back in DRAFT the authorization is spent: a new start takes a new one
    authorization_id: draft ? null : input.authorizationId,
    workflow_id: workflowId,
    started_at: startedAt,
    reason_code: caught.reasonCode,
    device_id: caught.deviceId ?? deviceId,
    pdd_order_no: caught.pddOrderNo,
    updated_at: now,
    finished_at: isTerminal(caught.status) ? (caught.moves.at(-1)?.at ?? now) : null,
    ...(caught.resultData ? { result_data: caught.resultData } : {}),
  };
  if (task) {
    await trx
      .updateTable('tasks')
      .set({ ...fields, version: task.version + 1 })
      .where('task_id', '=', input.taskId)
      .execute();
    if (caught.goods.title)
      await trx
        .updateTable('tasks')
        .set({ title: caught.goods.title, search_text: searchTextOf(caught.goods.title) })
        .where('task_id', '=', input.taskId)
        .where('title', 'is', null)
        .execute();
    return;
  }
  // created after the backup: what its workflow was started with is all that is left of the draft
  await trx
    .insertInto('tasks')
    .values({
      ...fields,
      task_id: input.taskId,
      task_type: 'purchase',
      version: 1,
      pdd_goods_url: canonicalPddGoodsUrl(input.goodsId),
      pdd_goods_id: input.goodsId,
      title: caught.goods.title,
      search_text: searchTextOf(caught.goods.title),
      shop_name: caught.goods.shopName,
      source: 'manual',
      pdd_options: JSON.stringify(input.options),
      quantity: input.quantity,
      max_total_price_cent: input.maxTotalPriceCent,
      execution_mode: input.mode,
      created_by: CATCH_UP_ACTOR.name,
      created_at: startedAt,
    })
    .execute();
}

async function writeAuthorization(trx: AdminDb, w: CaughtWorkflow, known: string | null): Promise<void> {
  const { input, caught } = w;
  const closedAt = caught.authorizationClosedAt;
  if (known === null) {
    await trx
      .insertInto('order_authorizations')
      .values({
        id: input.authorizationId,
        task_id: input.taskId,
        task_version: 0,
        start_key: randomUUID(),
        goods_id: input.goodsId,
        pdd_options: JSON.stringify(input.options),
        quantity: input.quantity,
        max_total_price_cent: input.maxTotalPriceCent,
        execution_mode: input.mode,
        status: caught.authorization,
        workflow_id: w.workflowId,
        workflow_started_at: w.startedAt,
        created_by: CATCH_UP_ACTOR.name,
        created_at: w.startedAt,
        expires_at: input.expiresAt,
        closed_at: closedAt,
      })
      .execute();
    return;
  }
  const from = known as typeof caught.authorization;
  if (AUTHORIZATION_STATES.has(from) && AUTHORIZATION_STATES.canMove(from, caught.authorization))
    await trx
      .updateTable('order_authorizations')
      .set({ status: caught.authorization, closed_at: closedAt, workflow_started_at: w.startedAt })
      .where('id', '=', input.authorizationId)
      .execute();
}

/** The attempt's row, and the timeline entries of the moves the database did not hold. */
async function writeAttempt(trx: AdminDb, w: CaughtWorkflow, dbStatus: string | null): Promise<void> {
  const { input, caught } = w;
  const a = caught.attempt;
  if (!a) return;
  const deviceId = caught.deviceId ?? w.deviceId ?? '';
  const entries = movesAfter(caught.moves, dbStatus).map((m) => ({
    at: m.at,
    status: m.to,
    reason: m.reasonCode ?? null,
    detail: m.detail ?? null,
    actor: m.actor ?? null,
  }));
  const r = a.readings;
  const columns = {
    status: a.status,
    step: a.step,
    gate1_unit_price_cent: r.gate1UnitPriceCent ?? null,
    gate2_panel_total_cent: r.gate2PanelTotalCent ?? null,
    gate3_submit_amount_cent: r.gate3SubmitAmountCent ?? null,
    quantity_read: r.quantityRead ?? null,
    confirmed_options: a.confirmedOptions ? JSON.stringify(a.confirmedOptions) : null,
    failure_code: a.failure?.code ?? null,
    failure_detail: a.failure?.detail ?? null,
    artifact_ref: a.failure?.artifactRef ?? null,
    purchase_json: a.purchaseJson,
    finished_at: a.finishedAt,
  };
  const row = await trx
    .selectFrom('purchase_attempts')
    .select(['status', 'timeline_json'])
    .where('id', '=', a.id)
    .executeTakeFirst();
  if (!row) {
    await trx
      .insertInto('purchase_attempts')
      .values({
        ...columns,
        id: a.id,
        task_id: input.taskId,
        authorization_id: input.authorizationId,
        device_id: deviceId,
        workflow_id: w.workflowId,
        started_at: a.startedAt,
        timeline_json: JSON.stringify(entries),
      })
      .execute();
    if (deviceId)
      await trx
        .insertInto('task_claims')
        .values({ task_id: input.taskId, device_id: deviceId, claimed_at: a.startedAt })
        .onConflict((oc) => oc.columns(['task_id', 'device_id']).doUpdateSet({ claimed_at: a.startedAt }))
        .execute();
    return;
  }
  const forward = row.status !== a.status && ATTEMPT_STATES.canMove(row.status, a.status);
  await trx
    .updateTable('purchase_attempts')
    .set({
      ...(forward ? columns : {}),
      timeline_json: JSON.stringify([...(JSON.parse(row.timeline_json) as unknown[]), ...entries]),
    })
    .where('id', '=', a.id)
    .execute();
}

async function writeSubmission(trx: AdminDb, { input, caught }: CaughtWorkflow): Promise<void> {
  const s = caught.submission;
  if (!s) return;
  const c = s.confirmation;
  const outcome = {
    status: s.status,
    order_submitted_at: s.tappedAt,
    pdd_order_no: s.pddOrderNo,
    ordered_at: s.orderedAt,
    resolved_at: s.resolvedAt,
    abandoned_at: s.abandonedAt,
  };
  const row = await trx.selectFrom('order_submissions').select('status').where('id', '=', s.id).executeTakeFirst();
  if (row) {
    if (row.status !== s.status && SUBMISSION_STATES.canMove(row.status, s.status))
      await trx.updateTable('order_submissions').set(outcome).where('id', '=', s.id).execute();
    else if (row.status === 'FENCED' && s.status === 'FENCED')
      await trx
        .updateTable('order_submissions')
        .set({ order_submitted_at: s.tappedAt, abandoned_at: s.abandonedAt })
        .where('id', '=', s.id)
        .where('order_submitted_at', 'is', null)
        .execute();
    return;
  }
  await trx
    .insertInto('order_submissions')
    .values({
      ...outcome,
      id: s.id,
      task_id: input.taskId,
      authorization_id: input.authorizationId,
      attempt_id: s.attemptId,
      gate1_unit_price_cent: c.gate1UnitPriceCent ?? 0,
      gate2_panel_total_cent: c.gate2PanelTotalCent ?? 0,
      quantity_read: c.quantityRead ?? 0,
      gate3_submit_amount_cent: c.gate3SubmitAmountCent ?? 0,
      created_at: s.createdAt,
    })
    .execute();
}
