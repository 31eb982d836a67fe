import type { Selectable } from 'kysely';
import { canonicalReason, reasonInfo } from '../../domain/purchase/reasons';
import { parseStopFacts, type StopFacts } from '../../domain/purchase/stop-facts';
import { NEXT_STEP_ZH, STATUS_ZH, type PurchaseStatus } from '../../domain/purchase/status';
import type { TaskView, TimelineEntry } from '../../domain/purchase/views';
import type { AdminDb } from '../db/database';
import type { AdminDatabase } from '../db/schema';
import { notFound } from '../../domain/api-error';
import { paymentCheckOf } from './payment-checks';
import { deviceName, durationSeconds, paymentWaitSeconds, pddAccount } from './task-fields';
import { draftWarnings } from './warnings';
import { claimWarnings } from './claim-warnings';
import { taskMoney, taskOrderLine } from '../money/task-money';

type Attempt = Selectable<AdminDatabase['purchase_attempts']>;

/** One purchase task as its page shows it: the task, its latest authorization's attempt and submission, the evidence. */
export async function getPurchaseTask(db: AdminDb, taskId: string): Promise<TaskView> {
  const { task, auth, attempt, submission, evidence } = await taskRecords(db, taskId);
  const status = task.status as PurchaseStatus;
  const current = auth !== undefined && task.authorization_id === auth.id;
  // a stop after the tap on 提交订单 reads as one: the order may exist
  const tapped = current && submission !== undefined && submission.abandoned_at === null;
  const reason = task.reason_code ? reasonInfo(task.reason_code, tapped) : null;
  const pddOptions = JSON.parse(task.pdd_options ?? '{}') as Record<string, string>;
  const timeline = await timelineOf(db, task, attempt);
  // its 规格 beside the PDD options, and its sale beside this task's cost
  const line = await taskOrderLine(db, task.syb_id);
  const { warnings, waiting_for } = await warningsOf(db, task, pddOptions);
  // a task waiting for a phone has none yet, whichever phone ran its attempt before a reset
  const phone = status === 'PENDING' ? { device_id: null, device_name: null, pdd_account: null } : task;
  return {
    task_id: task.task_id,
    type: 'purchase',
    status,
    status_zh: STATUS_ZH[status],
    next_step_zh: NEXT_STEP_ZH[status],
    version: task.version,
    execution_mode: task.execution_mode ?? 'dry_run',
    title: task.title,
    shop_name: task.shop_name,
    pdd_goods_id: task.pdd_goods_id,
    pdd_goods_url: task.pdd_goods_url,
    pdd_options: pddOptions,
    quantity: task.quantity ?? 0,
    max_total_price_cent: task.max_total_price_cent ?? 0,
    priority: task.priority,
    reason_code: task.reason_code && canonicalReason(task.reason_code),
    reason_zh: reason?.zh ?? null,
    reason_next_zh: reason?.next ?? null,
    reason_facts: task.reason_code ? stopFactsOf(status, timeline) : null,
    device_id: phone.device_id,
    device_name: phone.device_name,
    pdd_account: phone.pdd_account,
    confirmed_total_cent: task.confirmed_total_cent,
    payment_check: await paymentCheckOf(db, task.task_id),
    money: await taskMoney(db, task, line),
    syb_id: task.syb_id,
    syb_order_no: task.syb_order_no,
    order_line_spec: line?.product_spec ?? null,
    pdd_order_no: task.pdd_order_no,
    shopee_goods_id: task.shopee_goods_id,
    shopee_sku_id: task.shopee_sku_id,
    workflow_id: auth?.workflow_id ?? null,
    authorization: auth ? { id: auth.id, status: auth.status, expires_at: auth.expires_at } : null,
    // Readings of an authorization the task no longer holds (reset to DRAFT, then edited or
    // canceled) are history, not the task's current gates; the attempt keeps them.
    gates: {
      gate1_unit_price_cent: current ? (attempt?.gate1_unit_price_cent ?? null) : null,
      gate2_panel_total_cent: current ? (attempt?.gate2_panel_total_cent ?? null) : null,
      gate3_submit_amount_cent: current ? (attempt?.gate3_submit_amount_cent ?? null) : null,
      quantity_read: current ? (attempt?.quantity_read ?? null) : null,
    },
    timeline,
    attempt: attempt ? attemptView(attempt) : null,
    submission: submission
      ? {
          id: submission.id,
          status: submission.status,
          order_submitted_at: submission.order_submitted_at,
          pdd_order_no: submission.pdd_order_no,
          abandoned_at: submission.abandoned_at,
        }
      : null,
    evidence,
    warnings,
    waiting_for,
    duration_seconds: durationSeconds(task),
    payment_wait_seconds: paymentWaitSeconds(task),
    removed_at: task.removed_at,
    created_at: task.created_at,
    updated_at: task.updated_at,
  };
}

/** 草稿提示 of a draft, and what the phones say about a live or waiting task (./claim-warnings.ts). */
async function warningsOf(
  db: AdminDb,
  task: Awaited<ReturnType<typeof taskRecords>>['task'],
  pddOptions: Record<string, string>,
): Promise<Pick<TaskView, 'warnings' | 'waiting_for'>> {
  const claim = await claimWarnings(db, task);
  if (task.status !== 'DRAFT') return claim;
  const draft = await draftWarnings(db, {
    pdd_goods_id: task.pdd_goods_id,
    pdd_options: pddOptions,
    quantity: task.quantity ?? 0,
    max_total_price_cent: task.max_total_price_cent ?? 0,
    syb_id: task.syb_id,
  });
  return { warnings: [...draft, ...claim.warnings], waiting_for: claim.waiting_for };
}

async function taskRecords(db: AdminDb, taskId: string) {
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .select([deviceName, pddAccount])
    .where('task_id', '=', taskId)
    .where('task_type', '=', 'purchase')
    .executeTakeFirst();
  if (!task) throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  // The latest authorization of the task, even after a reset cleared tasks.authorization_id.
  const auth = await db
    .selectFrom('order_authorizations')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('task_version', 'desc')
    .limit(1)
    .executeTakeFirst();
  const attempt = auth
    ? await db.selectFrom('purchase_attempts').selectAll().where('authorization_id', '=', auth.id).executeTakeFirst()
    : undefined;
  const submission = auth
    ? await db.selectFrom('order_submissions').selectAll().where('authorization_id', '=', auth.id).executeTakeFirst()
    : undefined;
  const evidence = attempt
    ? await db
        .selectFrom('evidence_assets')
        .select(['id', 'kind', 'captured_at'])
        .where('task_id', '=', taskId)
        .where('attempt_id', '=', attempt.id)
        .orderBy('captured_at')
        .execute()
    : [];
  return { task, auth, attempt, submission, evidence };
}

/** 执行记录: the attempt's timeline with today's reason codes, and a cancel no attempt recorded. */
async function timelineOf(
  db: AdminDb,
  task: { task_id: string; status: string; reason_code: string | null; finished_at: string | null; updated_at: string },
  attempt: Attempt | undefined,
): Promise<TimelineEntry[]> {
  const timeline = attempt ? (JSON.parse(attempt.timeline_json) as TimelineEntry[]).map(readEntry) : [];
  // A task canceled before a phone took it (or after a reset) has no attempt that records it.
  if (task.status === 'CANCELED' && timeline.at(-1)?.status !== 'CANCELED') {
    timeline.push({
      at: task.finished_at ?? task.updated_at,
      status: 'CANCELED',
      reason: task.reason_code,
      detail: null,
      actor: await canceledBy(db, task.task_id),
    });
  }
  return timeline;
}

/** A stored entry with today's reason code, and its facts only when they are a shape this admin knows. */
function readEntry(stored: TimelineEntry): TimelineEntry {
  const { facts: raw, ...entry } = stored;
  const facts = parseStopFacts(raw);
  return {
    ...entry,
    ...(entry.reason ? { reason: canonicalReason(entry.reason) } : {}),
    ...(facts ? { facts } : {}),
  };
}

/** The facts of the current stop: those of the latest entry that recorded the task's status. */
function stopFactsOf(status: PurchaseStatus, timeline: readonly TimelineEntry[]): StopFacts | null {
  return timeline.findLast((e) => e.status === status)?.facts ?? null;
}

function attemptView(attempt: Attempt): NonNullable<TaskView['attempt']> {
  return {
    id: attempt.id,
    step: attempt.step,
    status: attempt.status,
    artifact_ref: attempt.artifact_ref,
    failure_detail: attempt.failure_detail,
    timeline: JSON.parse(attempt.timeline_json) as unknown[],
    purchase: attempt.purchase_json ? (JSON.parse(attempt.purchase_json) as unknown) : null,
  };
}

async function canceledBy(db: AdminDb, taskId: string): Promise<string | null> {
  const row = await db
    .selectFrom('audit_log')
    .select('actor')
    .where('target_kind', '=', 'task')
    .where('target_id', '=', taskId)
    .where('action', '=', 'task.canceled')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.actor ?? null;
}
