import Router from '@koa/router';
import { z } from 'zod';
import { listAudit } from '../../audit/list';
import { DEVICE_ID_RE } from '../../auth/device-credentials';
import { operatorOf } from '../../auth/principal';
import type { AppDeps } from '../deps';
import { parseQuery } from '../validate';
import { taskParams } from './tasks';

/** `?action=` (empty) is no filter, as the UI's selects send it. */
const optional = <S extends z.ZodTypeAny>(schema: S) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const auditQuery = z.object({
  // printable ASCII, as every action is; a trailing * is a prefix (admin/audit/list.ts)
  action: optional(z.string().regex(/^[\x20-\x7e]{1,120}$/, 'not an action')),
  device_id: optional(z.string().regex(DEVICE_ID_RE, 'not a device id')),
  task_id: optional(taskParams.shape.taskId),
  cursor: optional(z.string().max(1024)),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** 审计日志 (docs/api.md §4): the audit rows, newest first, by action, phone or task. */
export function auditRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/audit' });

  router.get('/', async (ctx) => {
    operatorOf(ctx);
    const q = parseQuery(ctx, auditQuery);
    ctx.body = await listAudit(deps.reads, {
      action: q.action,
      deviceId: q.device_id,
      taskId: q.task_id,
      cursor: q.cursor,
      limit: q.limit,
    });
  });

  return router;
}
