import type { Context } from 'koa';
import { auditRequest } from '../../audit/audit';
import type { AuditHook } from '../../catalog/common';
import { actorOf } from '../../auth/principal';

/** The catalog routes' audit hook: one explicit row per operator action, in its transaction. */
export function auditFor(ctx: Context): AuditHook {
  const actor = actorOf(ctx);
  return (trx, entry) => auditRequest(ctx, trx, actor, entry);
}
