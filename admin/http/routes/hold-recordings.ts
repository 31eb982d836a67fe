import Router from '@koa/router';
import { z } from 'zod';
import { conflict } from '../../../domain/api-error';
import { markAudited } from '../../audit/audit';
import { DEVICE_ID_RE } from '../../auth/device-credentials';
import { deviceOf, operatorOf } from '../../auth/principal';
import type { AdminDb } from '../../db/database';
import { holdRecordings } from '../../devices/hold-recordings';
import { holderOf } from '../../devices/holds';
import { screenNodesUploadSchema } from '../../../domain/screen-nodes';
import type { AppDeps } from '../deps';
import { fileOf, withPngUpload } from './device-evidence';
import { parseBody, parseParams } from '../validate';

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
 * its frames, served by `GET /api/evidence/:id`. `PUT /api/device/screen-nodes` (device Bearer):
 * the nodes the worker last read while held, and `GET /api/devices/:deviceId/screen/nodes`
 * (operators): that read for 教弹窗, kept in memory only (admin/devices/screen-nodes.ts).
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
  router.put('/device/screen-nodes', async (ctx) => {
    const device = deviceOf(ctx);
    const body = parseBody(ctx, screenNodesUploadSchema);
    await deps.live.screenNodes.put(deps.db, device.deviceId, body.hold_since, body.nodes);
    // a read a second at most while held, never stored: the hold and its release are the audit rows
    markAudited(ctx);
    ctx.status = 204;
  });
  router.get('/devices/:deviceId/screen/nodes', async (ctx) => {
    operatorOf(ctx);
    const { deviceId } = parseParams(ctx, deviceParams);
    ctx.body = await deps.live.screenNodes.get(deps.db, deviceId);
  });
  return router;
}
