import Router from '@koa/router';
import { z } from 'zod';
import { MONEY_EXPORT_FORMATS, moneyExport } from '../../money/export';
import { listMoneyLines } from '../../money/lines';
import { moneyOverview } from '../../money/overview';
import { dayRangeSchema } from '../../money/range';
import type { AppDeps } from '../deps';
import { parseQuery } from '../validate';

const linesQuery = dayRangeSchema.and(
  z.object({
    cursor: z.string().max(1024).optional(),
    sort: z.enum(['shipped', 'margin', '-margin']).default('shipped'),
    loss: z.enum(['0', '1']).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  }),
);

/** 金额 (docs/api.md §16): what each order line earns, and the days at a glance. */
export function moneyRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/money' });

  router.get('/lines', async (ctx) => {
    const q = parseQuery(ctx, linesQuery);
    ctx.body = await listMoneyLines(deps.db, { ...q, loss: q.loss === '1' });
  });

  router.get('/overview', async (ctx) => {
    ctx.body = await moneyOverview(deps.db, parseQuery(ctx, dayRangeSchema));
  });

  // the books' file, written as it is read, from the read connection (writes never wait for it)
  for (const format of MONEY_EXPORT_FORMATS)
    router.get(`/export.${format}`, (ctx) => {
      const file = moneyExport(deps.reads, parseQuery(ctx, dayRangeSchema), format, deps.log);
      ctx.set(file.headers);
      ctx.body = file.body;
    });

  return router;
}
