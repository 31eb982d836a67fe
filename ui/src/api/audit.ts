import type { AuditPage, AuditQuery } from '../../../domain/audit-views';
import { http, query } from './client';

// 审计日志: who did what, to what, when, filtered by action, phone and task (admin/audit/list.ts)

export const listAudit = (f: AuditQuery, limit: number, cursor: string | null): Promise<AuditPage> =>
  http.get(`/api/audit${query({ ...f, limit, cursor })}`);
