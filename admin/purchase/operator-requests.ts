import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { PurchaseStatus } from '../../domain/purchase/status';
import type { OperatorAnswer, ResolveReconciliationInput } from '../../domain/purchase/workflow-types';
import type { WorkflowAction } from '../../domain/contracts/purchase-messages';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { unprocessable } from '../../domain/api-error';

/*
 * One operator request on a task, told apart from every other by its id and remembered in the
 * audit log: the id it acts under, the answer it already got, and the rows of a request that
 * changed nothing (./actions.ts sends it).
 */

/** The audit actions of a request that changed nothing (the changes are audited by their writer). */
const UNCHANGED = {
  received: 'task.request',
  refused: 'task.request_refused',
  superseded: 'task.request_superseded',
  failed: 'task.request_failed',
} as const;

export type UnchangedAudit = (kind: keyof typeof UNCHANGED, details: Record<string, unknown>) => Promise<void>;

/** Writes the audit row of a request that changed nothing, with its action and id. */
export function unchangedAudit(
  db: AdminDb,
  actor: AuditActor,
  taskId: string,
  action: WorkflowAction,
  requestId: string,
): UnchangedAudit {
  return (kind, details) =>
    writeTransaction(db, (trx) =>
      recordAudit(trx, actor, {
        action: UNCHANGED[kind],
        target: { kind: 'task', id: taskId },
        details: { action, request_id: requestId, ...details },
      }),
    );
}

/** What the request asks, as a digest: a key reused for another body is told apart by it. */
export function bodyDigest(action: WorkflowAction, payload: ResolveReconciliationInput | undefined): string {
  const body = payload
    ? { outcome: payload.outcome, ...(payload.outcome === 'created' ? { orderNo: payload.orderNo } : {}) }
    : {};
  return createHash('sha256').update(JSON.stringify({ action, body })).digest('hex');
}

/**
 * The update id: the client's key, or the version it acts on. A key seen before with another body
 * is refused. Without a key, a different body is a different request (its own id), and after a
 * write that failed for good asking again is a new request too — Temporal would otherwise answer
 * it with the first, failed update.
 */
export async function requestIdOf(
  db: AdminDb,
  taskId: string,
  action: WorkflowAction,
  digest: string,
  version: number,
  key: string | undefined,
): Promise<string> {
  if (key) {
    const id = `${taskId}/${action}/${key}`;
    const seen = await auditRows(db, taskId, id, [UNCHANGED.received]);
    if (seen.some((d) => d.body_sha256 !== digest))
      throw unprocessable('IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${key} was used for another ${action} request`);
    return id;
  }
  const base = `${taskId}/${action}/v${version}${action === 'resolve' ? `/${digest.slice(0, 12)}` : ''}`;
  for (let n = 0; ; n++) {
    const id = n === 0 ? base : `${base}/r${n}`;
    if ((await auditRows(db, taskId, id, [UNCHANGED.failed])).length === 0) return id;
  }
}

async function auditRows(
  db: AdminDb,
  taskId: string,
  requestId: string,
  actions: readonly string[],
): Promise<Record<string, unknown>[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select('details_json')
    .where('target_kind', '=', 'task')
    .where('target_id', '=', taskId)
    .where('action', 'in', actions)
    .where(sql<string>`json_extract(details_json, '$.request_id')`, '=', requestId)
    .execute();
  return rows.map((r) => JSON.parse(r.details_json ?? '{}') as Record<string, unknown>);
}

/**
 * The answer this request id already has: the change it made (an audit row a writer other than
 * this module left with the id) or the superseded answer it was given.
 */
export async function earlierAnswer(db: AdminDb, taskId: string, requestId: string): Promise<OperatorAnswer | null> {
  const row = await db
    .selectFrom('audit_log')
    .select(['action', 'details_json'])
    .where('target_kind', '=', 'task')
    .where('target_id', '=', taskId)
    .where('action', 'not in', [UNCHANGED.received, UNCHANGED.refused, UNCHANGED.failed])
    .where(sql<string>`json_extract(details_json, '$.request_id')`, '=', requestId)
    .orderBy('id')
    .executeTakeFirst();
  if (!row) return null;
  const details = JSON.parse(row.details_json ?? '{}') as { to?: PurchaseStatus; status?: PurchaseStatus };
  if (row.action === UNCHANGED.superseded) return { result: 'superseded', status: details.status! };
  return { result: 'applied', status: details.to ?? (await statusOf(db, taskId)) };
}

export async function statusOf(db: AdminDb, taskId: string): Promise<PurchaseStatus> {
  const row = await db.selectFrom('tasks').select('status').where('task_id', '=', taskId).executeTakeFirstOrThrow();
  return row.status as PurchaseStatus;
}
