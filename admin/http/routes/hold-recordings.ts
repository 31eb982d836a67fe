import Router from '@koa/router';
import { z } from 'zod';
import { conflict } from '../../../domain/api-error';
import { markAudited } from '../../audit/audit';
import { DEVICE_ID_RE } from '../../auth/device-credentials';
import { deviceOf, operatorOf } from '../../auth/principal';
import type { AdminDb } from '../../db/database';
import { holdRecordings } from '../../devices/hold-recordings';
import { holderOf } from '../../devices/holds';
import type { AppDeps } from '../deps';
import { fileOf, withPngUpload } from './device-evidence';
import { parseParams } from '../validate';

const deviceParams = z.object({ deviceId: z.string().regex(DEVICE_ID_RE, 'not a device id') });

/** A frame belongs to the hold under way, named by its start: one from an earlier hold is refused too. */
function heldSince(deviceId: string, since: string) {
  return async (trx: AdminDb): Promise<void> => {
    const holder = await holderOf(trx, deviceId);
    if (!holder || holder.since !== since)
      throw conflict(
        'DEVICE_NOT_HELD',
        `nobody holds this phone since ${since}: a frame is kept only during its hold`,
        {
          held_since: holder?.since ?? null,
        },
      );
  };
}

/**
 * The recording of a held phone (docs/api.md §12.3). `POST /api/device/hold-frames` (device
 * Bearer, multipart like the evidence upload): one frame the worker read as no payment screen
 * (device-worker/runtime/hold-recorder.ts), stored as evidence of kind HOLD_FRAME while the phone
 * is held. `GET /api/devices/:deviceId/recordings` (operators): its holds, newest first, each with
 * its frames, served by `GET /api/evidence/:id`.
 */
export function holdRecordingRoutes(deps: AppDeps): Router {
  const store = deps.security.evidence;
  const router = new Router({ prefix: '/api' });
  router.post('/device/hold-frames', async (ctx) => {
    const device = deviceOf(ctx);
    await withPngUpload(ctx, store.dir, async (upload) => {
      const fields = store.parseHoldFrameFields(upload.fields);
      const check = heldSince(device.deviceId, fields.hold_since);
      const result = await store.commitHoldFrame(device.deviceId, fields, fileOf(upload), check);
      // one a second: the hold and its release are the audit rows, each frame is its own record
      markAudited(ctx);
      ctx.status = result.created ? 201 : 200;
      ctx.body = result.asset;
    });
  });
  router.get('/devices/:deviceId/recordings', async (ctx) => {
    operatorOf(ctx);
    const { deviceId } = parseParams(ctx, deviceParams);
    ctx.body = await holdRecordings(deps.reads, deviceId);
  });
  return router;
}
