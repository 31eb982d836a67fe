import { sql, type ExpressionBuilder } from 'kysely';
import type { PaymentCheckView } from '../../domain/purchase/payment-check';
import { phaseOf, PURCHASE_STATUSES } from '../../domain/purchase/state-machine';
import { parseUtcTimestamp } from '../../domain/time';
import type { AdminDatabase } from '../db/schema';

/*
 * What the task list and the task page both show of a task beyond its own columns, worked out
 * the same way for both.
 */

/** A task's device by its display name (a subquery, so the task filters stay unambiguous). */
export const deviceName = (eb: ExpressionBuilder<AdminDatabase, 'tasks'>) =>
  eb
    .selectFrom('device_credentials as dc')
    .select('dc.display_name')
    .whereRef('dc.device_id', '=', 'tasks.device_id')
    .as('device_name');

/** The PDD account the task's phone is logged in as, as an operator set it on 设备. */
export const pddAccount = (eb: ExpressionBuilder<AdminDatabase, 'tasks'>) =>
  eb
    .selectFrom('device_credentials as dc')
    .select('dc.pdd_account')
    .whereRef('dc.device_id', '=', 'tasks.device_id')
    .as('pdd_account');

/** The task's latest payment check (migrations/0161_payment_checks.ts) as JSON text, or null. */
export const paymentCheckJson = (eb: ExpressionBuilder<AdminDatabase, 'tasks'>) =>
  eb
    .selectFrom('payment_checks as pc')
    .select(sql<string>`json_object('status', pc.status, 'checked_at', pc.checked_at, 'message', pc.message)`.as('j'))
    .whereRef('pc.task_id', '=', 'tasks.task_id')
    .as('payment_check_json');

export const parsePaymentCheck = (json: string | null): PaymentCheckView | null =>
  json ? (JSON.parse(json) as PaymentCheckView) : null;

/**
 * States the phone has stopped in, waiting for a person (not terminal, so no finished_at): the
 * task's last change is when it stopped, and nothing but the operator's action changes it next.
 */
const STOPPED: ReadonlySet<string> = new Set(PURCHASE_STATUSES.filter((s) => phaseOf(s) === 'person'));

/** A task's times as 用时 reads them. */
type Timed = Record<'status' | 'created_at' | 'updated_at', string> &
  Record<'started_at' | 'finished_at' | 'waiting_payment_at', string | null>;

const secondsBetween = (from: string, to: string): number =>
  Math.max(0, Math.round((parseUtcTimestamp(to).getTime() - parseUtcTimestamp(from).getTime()) / 1000));

/**
 * 用时: the machine's time — from the start (or creation) to the order reaching 待付款, to the end,
 * or to the stop a person has to act on. The time a person took to pay is not the machine's
 * (paymentWaitSeconds).
 */
export function durationSeconds(t: Timed): number | null {
  const to = t.waiting_payment_at ?? t.finished_at ?? (STOPPED.has(t.status) ? t.updated_at : null);
  return to ? secondsBetween(t.started_at ?? t.created_at, to) : null;
}

/** 等待付款: from reaching 待付款 to 标记已付款; null before it was paid. */
export function paymentWaitSeconds(t: { waiting_payment_at: string | null; paid_at: string | null }): number | null {
  return t.waiting_payment_at && t.paid_at ? secondsBetween(t.waiting_payment_at, t.paid_at) : null;
}
