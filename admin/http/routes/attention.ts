import Router from '@koa/router';
import { operatorOf } from '../../auth/principal';
import { attentionQueue } from '../../services/attention-queue';
import type { AppDeps } from '../deps';

/** 需处理 (docs/api.md §12.1): the phones and tasks that wait for a person, oldest first. */
export function attentionRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/attention' });

  // every page's navigation polls it: the read-only connection
  router.get('/', async (ctx) => {
    operatorOf(ctx);
    ctx.body = await attentionQueue(deps.reads);
  });

  return router;
}
