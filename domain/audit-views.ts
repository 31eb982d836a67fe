/**
 * One row of 审计日志 (`GET /api/audit`, admin/audit/list.ts): who did what, to what, when, as the
 * audit log holds it.
 */
export interface AuditListItem {
  /** UTC, as written */
  at: string;
  /** as stored: an operator's username, a device id, `cli:<os user>` or a system component */
  actor: string;
  /** dotted and stable (`task.start`, `device.pause`) */
  action: string;
  target: { kind: string; id: string } | null;
  /** the row's details, parsed; never secrets (admin/audit/audit.ts does not take them) */
  details: unknown;
}

/** A page of 审计日志, newest first; no total (counting the years of the log on each page costs too much). */
export interface AuditPage {
  items: AuditListItem[];
  /** null on the last page */
  next_cursor: string | null;
}

/** The filters of `GET /api/audit` ('' is none): `action` exact or a prefix ending in `*` (`task.*`). */
export interface AuditQuery {
  action: string;
  device_id: string;
  task_id: string;
}
