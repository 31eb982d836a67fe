import Router from '@koa/router';
import { listDevices } from '../../auth/device-registry';
import { operatorOf } from '../../auth/principal';
import type { AppDeps } from '../app';

/** `GET /api/devices` (operators): every active device and whether it was seen lately. */
export function deviceRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/devices' });
  router.get('/', async (ctx) => {
    operatorOf(ctx);
    ctx.body = await listDevices(deps.db);
  });
  return router;
}
