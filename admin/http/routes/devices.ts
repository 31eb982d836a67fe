import Router from '@koa/router';
import type { DeviceView } from '../../../domain/devices';
import { listDevices } from '../../auth/device-registry';
import { operatorOf } from '../../auth/principal';
import type { AppDeps } from '../deps';

/** `GET /api/devices` (operators): every active device and whether it was seen lately. */
export function deviceRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/devices' });
  router.get('/', async (ctx) => {
    operatorOf(ctx);
    // Typed with the view the UI reads, so the registry's shape cannot drift from it.
    const devices: DeviceView[] = await listDevices(deps.db);
    ctx.body = devices;
  });
  return router;
}
