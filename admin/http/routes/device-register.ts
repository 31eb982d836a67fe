import Router from '@koa/router';
import { auditRequest } from '../../audit/audit';
import { deviceRegistrationSchema, phoneHostSettings, registerDevice } from '../../auth/device-registry';
import { actorOf, deviceOf } from '../../auth/principal';
import { writeTransaction } from '../../db/database';
import { reportDeviceStatus } from '../../devices/attention';
import { healthReadingSchema } from '../../devices/health';
import { phoneAgentReportSchema } from '../../../domain/phone-agent';
import type { AppDeps } from '../deps';
import { parseBody } from '../validate';
import { z } from 'zod';

/** Unknown fields are accepted and ignored, for newer workers. */
const statusBody = z.object({
  adb_connected: z.boolean(),
  /** the worker's own reading right before a claim (docs/phone-hosts.md "Health") */
  health: z.object(healthReadingSchema.shape).optional(),
  /** the read-screen agent's state; absent from workers from before it, which keeps the last one */
  agent: phoneAgentReportSchema.optional(),
});

/**
 * `POST /api/device/register` (device Bearer): idempotent, refreshes last_seen_at.
 * `POST /api/device/status`: the phone's ADB state, answered with whether it may take a claim now
 * (asked before every claim and between claims, docs/api.md §12.1).
 */
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
  router.post('/status', async (ctx) => {
    const device = deviceOf(ctx);
    const body = parseBody(ctx, statusBody);
    ctx.body = await reportDeviceStatus(deps.db, device.deviceId, body);
  });
  return router;
}
