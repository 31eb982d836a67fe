import Router from '@koa/router';
import { z } from 'zod';
import { EXECUTION_MODES } from '../../../domain/purchase/status';
import { MATCH_STATES } from '../../../domain/syb';
import { actorOf } from '../../auth/principal';
import { auditRequest, markAudited } from '../../audit/audit';
import { refuseControlCharacters, sybSettingsInput } from '../../syb/account';
import { draftsFromOrderLines } from '../../syb/drafts';
import { setOrderLineSku } from '../../syb/line-sku';
import { listOrderLines } from '../../syb/orders';
import { ensureSybSchedule, triggerSybSync } from '../../syb/schedule';
import { sybSyncStatus } from '../../syb/sync';
import type { AppDeps } from '../deps';
import { parseBody, parseParams, parseQuery } from '../validate';
import { auditFor } from './catalog-audit';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day: YYYY-MM-DD');
const ordersQuery = z.object({
  q: z.string().trim().max(100).optional(),
  match: z.enum(MATCH_STATES).optional(),
  has_task: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  date_from: day.optional(),
  date_to: day.optional(),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
const lineParams = z.object({ sybId: z.string().min(1).max(120) });
const skuBody = z
  .object({
    shopee_sku_id: z
      .string()
      .regex(/^\d{1,30}$/, 'a Shopee SKU id (digits) or null')
      .nullable(),
    confirm_mismatch: z.boolean().default(false),
  })
  .strict();
const fromOrdersBody = z
  .object({
    syb_ids: z.array(z.string().min(1).max(120)).min(1).max(200),
    execution_mode: z.enum(EXECUTION_MODES).default('dry_run'),
    // lines below 设置 → 最低毛利率 are drafted too: the 订单 page sends it for one line, after a confirm
    allow_low_margin: z.boolean().default(false),
  })
  .strict();

/** 订单 (顺运宝): sync status and trigger, the order lines, their Shopee SKU, the SYB account, drafts. */
export function sybRoutes(deps: AppDeps): Router {
  const router = new Router();

  router.get('/api/syb/sync', async (ctx) => {
    ctx.body = await sybSyncStatus(deps.db);
  });

  router.post('/api/syb/sync', async (ctx) => {
    const started = await triggerSybSync(deps.temporal, deps.syb);
    await auditRequest(ctx, deps.db, actorOf(ctx), {
      action: 'syb.sync.start',
      details: { workflow_id: started.workflow_id },
    });
    ctx.status = 202;
    ctx.body = started;
  });

  router.get('/api/syb/orders', async (ctx) => {
    ctx.body = await listOrderLines(deps.db, parseQuery(ctx, ordersQuery));
  });

  router.put('/api/syb/orders/:sybId/sku', async (ctx) => {
    const { sybId } = parseParams(ctx, lineParams);
    const body = parseBody(ctx, skuBody);
    ctx.body = await setOrderLineSku(deps.db, sybId, body.shopee_sku_id, auditFor(ctx), body.confirm_mismatch);
  });

  router.get('/api/syb/settings', async (ctx) => {
    ctx.body = await deps.syb.view();
  });

  router.put('/api/syb/settings', async (ctx) => {
    refuseControlCharacters((ctx.request as { body?: unknown }).body);
    const body = parseBody(ctx, sybSettingsInput);
    const view = await deps.syb.update(body, auditFor(ctx));
    // Paused without an account, running with one; Temporal down now → the next admin start.
    await ensureSybSchedule(deps.temporal, deps.syb).catch((err: unknown) =>
      deps.log.warn({ err: (err as Error).message }, 'SYB schedule not updated'),
    );
    ctx.body = view;
  });

  router.post('/api/tasks/from-orders', async (ctx) => {
    const body = parseBody(ctx, fromOrdersBody);
    const results = await draftsFromOrderLines(deps.db, actorOf(ctx), body.syb_ids, {
      mode: body.execution_mode,
      allowLowMargin: body.allow_low_margin,
    });
    markAudited(ctx); // each draft is audited by the draft creator; refusals wrote nothing
    ctx.body = { results };
  });

  return router;
}
