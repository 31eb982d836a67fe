import Router from '@koa/router';
import { z } from 'zod';
import { ApiError, invalidInput } from '../../../domain/api-error';
import { phoneInputSchema, type PhoneInput } from '../../../domain/phone-input';
import { markAudited } from '../../audit/audit';
import { DEVICE_ID_RE } from '../../auth/device-credentials';
import { actorOf, operatorOf } from '../../auth/principal';
import { holdDevice, releaseDevice } from '../../devices/holds';
import type { AppDeps } from '../deps';
import { errorBody } from '../errors';
import { parseParams } from '../validate';

const deviceParams = z.object({ deviceId: z.string().regex(DEVICE_ID_RE, 'not a device id') });

/** The body as an input, or INPUT_INVALID naming the first field that is wrong. */
function parseInput(body: unknown): PhoneInput {
  const result = phoneInputSchema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || 'kind';
  throw invalidInput('INPUT_INVALID', `${field}: ${issue?.message ?? 'invalid input'}`, { field });
}

/**
 * A phone in the admin (docs/api.md §12.3): its current frame, holding and releasing it, and a
 * person's input. The live stream is a WebSocket (admin/http/sockets.ts).
 */
export function deviceScreenRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/devices/:deviceId' });

  // watching needs no hold
  router.get('/screen', async (ctx) => {
    operatorOf(ctx);
    const { deviceId } = parseParams(ctx, deviceParams);
    const frame = await deps.live.screens.frame(deviceId);
    ctx.type = frame.contentType;
    ctx.body = frame.body;
  });

  router.post('/hold', async (ctx) => {
    const operator = operatorOf(ctx);
    const { deviceId } = parseParams(ctx, deviceParams);
    try {
      ctx.body = await holdDevice(deps.db, actorOf(ctx), operator, deviceId);
    } catch (err) {
      // who holds it, where a client looks first
      if (!(err instanceof ApiError) || err.code !== 'DEVICE_HELD') throw err;
      ctx.status = 409;
      ctx.body = { ...errorBody(err.code, err.message, err.details), ...(err.details as { held_by: string }) };
      return;
    }
    markAudited(ctx);
  });

  router.delete('/hold', async (ctx) => {
    const operator = operatorOf(ctx);
    const { deviceId } = parseParams(ctx, deviceParams);
    await releaseDevice(deps.db, actorOf(ctx), operator.username, deviceId, 'released');
    markAudited(ctx);
    ctx.status = 204;
  });

  router.post('/input', async (ctx) => {
    const operator = operatorOf(ctx);
    const { deviceId } = parseParams(ctx, deviceParams);
    const input = parseInput((ctx.request as { body?: unknown }).body);
    await deps.live.screens.input(actorOf(ctx), operator.username, deviceId, input);
    markAudited(ctx);
    ctx.body = { ok: true };
  });

  return router;
}
