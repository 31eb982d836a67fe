import Router from '@koa/router';
import { z } from 'zod';
import { createPurchaseDraftSchema, editPurchaseDraftSchema } from '../../../domain/purchase/schemas';
import { actorOf } from '../../auth/principal';
import { markAudited } from '../../audit/audit';
import { liveGateWarnings } from '../../purchase/claim-warnings';
import { copyAsLive } from '../../purchase/copy-live';
import { editPurchaseDraft } from '../../purchase/draft-edit';
import { createPurchaseDraft } from '../../purchase/drafts';
import { hideTasks } from '../../purchase/hide';
import { knownPurchaseOrRefuse } from '../../purchase/known';
import { closedWorkflowOf } from '../../purchase/repair';
import { TaskListCache } from '../../purchase/list-cache';
import { taskCountsByStatus } from '../../purchase/queries';
import { startPurchases } from '../../purchase/start';
import { getPurchaseTask } from '../../purchase/task-view';
import type { AppDeps } from '../deps';
import { parseBody, parseParams, parseQuery } from '../validate';

export const taskParams = z.object({ taskId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'not a task id') });
const startBody = z
  .object({
    tasks: z
      .array(z.object({ task_id: z.string().min(1), version: z.number().int().positive() }).strict())
      .min(1)
      .max(500),
  })
  .strict();
const knownQuery = z.object({
  shopee_sku_id: z.string().regex(/^\d{1,32}$/, 'not a Shopee SKU id'),
  quantity: z.coerce.number().int().min(1).max(1000).default(1),
});
const hideBody = z.object({ task_ids: z.array(z.string().min(1).max(64)).min(1).max(500) }).strict();
const listQuery = z.object({
  status: z
    .string()
    .regex(/^[A-Za-z_]{1,32}$/)
    .optional(),
  q: z.string().trim().max(100).optional(),
  cursor: z.string().max(400).optional(),
  include_hidden: z.enum(['0', '1']).optional(),
  /** `open`: tasks marked paid whose check on the phone is pending or did not confirm (the pay list) */
  payment_check: z.enum(['open']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * 采购任务 (docs/api.md): drafts, the all-or-nothing start, reads. The operator actions on a
 * task are ./task-actions.ts.
 */
export function taskRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/tasks' });
  const listPages = new TaskListCache();

  router.post('/', async (ctx) => {
    const body = parseBody(ctx, createPurchaseDraftSchema);
    ctx.status = 201;
    ctx.body = await createPurchaseDraft(deps.db, actorOf(ctx), body);
    markAudited(ctx);
  });

  router.post('/start', async (ctx) => {
    const body = parseBody(ctx, startBody);
    const started = await startPurchases(deps, actorOf(ctx), body.tasks);
    markAudited(ctx);
    ctx.body = { tasks: started };
  });

  router.post('/hide', async (ctx) => {
    const body = parseBody(ctx, hideBody);
    ctx.body = await hideTasks(deps.db, actorOf(ctx), body.task_ids);
    markAudited(ctx);
  });

  // 采购 on a product's SKU: the form pre-filled with what the admin knows (before /:taskId).
  router.get('/known', async (ctx) => {
    const { shopee_sku_id, quantity } = parseQuery(ctx, knownQuery);
    ctx.body = await knownPurchaseOrRefuse(deps.db, shopee_sku_id, quantity);
  });

  router.get('/', async (ctx) => {
    const { include_hidden, payment_check, ...query } = parseQuery(ctx, listQuery);
    ctx.type = 'application/json';
    const page = await listPages.page(deps.reads, {
      ...query,
      includeHidden: include_hidden === '1',
      ...(payment_check ? { paymentCheck: payment_check } : {}),
    });
    // the release gate follows the phones, not the tasks: read at every answer, beside the kept page
    const live = JSON.stringify(await liveGateWarnings(deps.reads));
    ctx.body = `{"live_warnings":${live},${page.slice(1)}`;
  });

  // before /:taskId: the status tabs' counts (registered first, so it is never read as a task id)
  router.get('/counts', async (ctx) => {
    ctx.body = { counts: await taskCountsByStatus(deps.reads) };
  });

  router.get('/:taskId', async (ctx) => {
    const { taskId } = parseParams(ctx, taskParams);
    const view = await getPurchaseTask(deps.db, taskId);
    ctx.body = { ...view, workflow_closed: await closedWorkflowOf(deps.temporal, view) };
  });

  router.patch('/:taskId', async (ctx) => {
    const { taskId } = parseParams(ctx, taskParams);
    const body = parseBody(ctx, editPurchaseDraftSchema);
    await editPurchaseDraft(deps.db, actorOf(ctx), taskId, body);
    markAudited(ctx);
    ctx.body = await getPurchaseTask(deps.db, taskId);
  });

  router.post('/:taskId/copy-live', async (ctx) => {
    const { taskId } = parseParams(ctx, taskParams);
    ctx.status = 201;
    ctx.body = await copyAsLive(deps.db, actorOf(ctx), taskId);
    markAudited(ctx);
  });

  return router;
}
