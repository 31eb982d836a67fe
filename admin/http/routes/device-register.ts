import Router from '@koa/router';
import { auditRequest } from '../../audit/audit';
import { deviceRegistrationSchema, phoneHostSettings, registerDevice } from '../../auth/device-registry';
import { actorOf, deviceOf } from '../../auth/principal';
import { writeTransaction } from '../../db/database';
import type { AppDeps } from '../deps';
import { parseBody } from '../validate';

/** `POST /api/device/register` (device Bearer): idempotent, refreshes last_seen_at. */
export function deviceRegisterRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/device' });
  router.post('/register', async (ctx) => {
    const device = deviceOf(ctx);
    const reg = parseBody(ctx, deviceRegistrationSchema);
    ctx.body = await writeTransaction(deps.db, async (trx) => {
      const result = await registerDevice(trx, device.deviceId, reg);
      await auditRequest(ctx, trx, actorOf(ctx), {
        action: 'device.register',
        target: { kind: 'device', id: device.deviceId },
        details: { serial: reg.serial, model: reg.model, app_version: reg.app_version },
      });
      return { ...result, settings: await phoneHostSettings(trx) };
    });
  });
  return router;
}
