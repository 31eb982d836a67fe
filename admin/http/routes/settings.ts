import Router from '@koa/router';
import { settingsUpdateSchema } from '../../../domain/settings';
import { markAudited } from '../../audit/audit';
import { settingsUpdate, settingsView } from '../../settings/settings';
import type { AppDeps } from '../deps';
import { parseBody } from '../validate';
import { auditFor } from './catalog-audit';

/** 设置: the operator settings of domain/settings.ts (the SYB account has its own routes). */
export function settingsRoutes(deps: AppDeps): Router {
  const router = new Router();

  router.get('/api/settings', async (ctx) => {
    ctx.body = await settingsView(deps.db);
  });

  router.put('/api/settings', async (ctx) => {
    const body = parseBody(ctx, settingsUpdateSchema);
    ctx.body = await settingsUpdate(deps.db, body, auditFor(ctx));
    markAudited(ctx); // a save that changes nothing writes no row
  });

  return router;
}
