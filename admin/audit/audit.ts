import type { Context } from 'koa';
import { nowUtc } from '../../domain/time';
import type { AdminDb } from '../db/database';

export interface AuditActor {
  kind: 'operator' | 'device' | 'cli' | 'system';
  /** username, device id, `cli:<os user>` or a system component name */
  name: string;
  sourceIp?: string | undefined;
}

export interface AuditEntry {
  /** dotted, stable, e.g. `task.cancel`, `device.revoke` */
  action: string;
  target?: { kind: string; id: string };
  /** never secrets, never personal data from screenshots */
  details?: Record<string, unknown>;
}

/**
 * Writes one audit row. Call it inside the same write transaction as the change it describes,
 * so the change and its record commit or roll back together.
 */
export async function recordAudit(trx: AdminDb, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await recordAudits(trx, actor, [entry]);
}

/** Writes the audit rows of a batch by one actor in one statement, inside the batch's transaction. */
export async function recordAudits(trx: AdminDb, actor: AuditActor, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const at = nowUtc();
  await trx
    .insertInto('audit_log')
    .values(
      entries.map((entry) => ({
        occurred_at: at,
        actor_kind: actor.kind,
        actor: actor.name,
        action: entry.action,
        target_kind: entry.target?.kind ?? null,
        target_id: entry.target?.id ?? null,
        details_json: entry.details === undefined ? null : JSON.stringify(entry.details),
        source_ip: actor.sourceIp ?? null,
      })),
    )
    .execute();
}

const audited = new WeakSet<Context>();

/**
 * For routes: records the operator's (or device's) action and marks the request as audited,
 * so the fallback in `auditFallback()` does not add a second, vaguer row.
 */
export async function auditRequest(ctx: Context, trx: AdminDb, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await recordAudit(trx, actor, entry);
  audited.add(ctx);
}

export function wasAudited(ctx: Context): boolean {
  return audited.has(ctx);
}

/** For a request that changed nothing worth a row (an idempotent replay, say). */
export function markAudited(ctx: Context): void {
  audited.add(ctx);
}
