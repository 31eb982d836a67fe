import Router from '@koa/router';
import { auditRequest, markAudited } from '../../audit/audit';
import { deviceRegistrationSchema, phoneHostSettings, registerDevice } from '../../auth/device-registry';
import { actorOf, deviceOf } from '../../auth/principal';
import { writeTransaction } from '../../db/database';
import { reportDeviceStatus, settleResumeCheck } from '../../devices/attention';
import { holderOf } from '../../devices/holds';
import { reviewedOverlays } from '../../devices/taught-overlays';
import { healthReadingSchema } from '../../devices/health';
import { phoneAgentReportSchema } from '../../../domain/phone-agent';
import type { AppDeps } from '../deps';
import { parseBody, parseQuery } from '../validate';
import { z } from 'zod';

/** Unknown fields are accepted and ignored, for newer workers. */
const statusBody = z.object({
  adb_connected: z.boolean(),
  /** the worker's own reading right before a claim (docs/phone-hosts.md "Health") */
  health: z.object(healthReadingSchema.shape).optional(),
  /** the read-screen agent's state; absent from workers from before it, which keeps the last one */
  agent: phoneAgentReportSchema.optional(),
});

const overlaysQuery = z.object({ app_version: z.string().trim().min(1).max(64) });

const resumeVerdictBody = z.object({
  ok: z.boolean(),
  reason_code: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{0,63}$/)
    .optional(),
  page: z.string().max(300),
});

/**
 * `POST /api/device/register` (device Bearer): idempotent, refreshes last_seen_at.
 * `POST /api/device/status`: the phone's ADB state, answered with whether it may take a claim now
 * (asked before every claim and between claims, docs/api.md §12.1). `GET /api/device/hold`: who
 * holds the phone from the admin, if anyone.
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
  // asked before every automated input (device-worker/runtime/hold-gate.ts): a person holding the
  // phone from the admin stops automation at its next act; the primary, so a hold is seen at once
  // the worker's fresh read after 处理完毕，继续 (device-worker/runtime/resume-check.ts)
  router.post('/resume-check', async (ctx) => {
    const device = deviceOf(ctx);
    const verdict = parseBody(ctx, resumeVerdictBody);
    await settleResumeCheck(deps.db, device.deviceId, verdict);
    markAudited(ctx); // the verdict that changed something is audited with its change
    ctx.body = { ok: true };
  });
  // the reviewed popups of a PDD version, added by the worker to its profile (activities/device/phone-activity.ts)
  router.get('/overlays', async (ctx) => {
    deviceOf(ctx);
    const { app_version } = parseQuery(ctx, overlaysQuery);
    ctx.body = { overlays: await reviewedOverlays(deps.db, app_version) };
  });
  router.get('/hold', async (ctx) => {
    const device = deviceOf(ctx);
    const holder = await holderOf(deps.db, device.deviceId);
    ctx.body = holder ?? { held_by: null, since: null };
  });
  return router;
}
