import type { Generated } from 'kysely';

/** Append-only (triggers refuse UPDATE and DELETE): who did what, when, to which target. */
interface AuditLogTable {
  id: Generated<number>;
  occurred_at: string;
  actor_kind: 'operator' | 'device' | 'cli' | 'system';
  actor: string;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  details_json: string | null;
  source_ip: string | null;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
