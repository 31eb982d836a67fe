import Router from '@koa/router';
import { z } from 'zod';
import type { AppVersionView } from '../../../domain/devices';
import { markAudited } from '../../audit/audit';
import { actorOf, operatorOf } from '../../auth/principal';
import { listAppVersions, releaseAppVersion, withdrawAppVersion } from '../../devices/app-versions';
import {
  listTaughtOverlays,
  retireOverlay,
  reviewOverlay,
  teachBodySchema,
  teachOverlay,
} from '../../devices/taught-overlays';
import type { AppDeps } from '../deps';
import { parseBody, parseParams } from '../validate';

const versionParams = z.object({ version: z.string().trim().min(1).max(64) });
const overlayParams = versionParams.extend({ id: z.coerce.number().int().min(1) });

/** 设备 → 拼多多版本: the release gate per PDD app version (admin/devices/app-versions.ts). */
export function appVersionRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/app-versions' });

  router.get('/', async (ctx) => {
    operatorOf(ctx);
    const versions: AppVersionView[] = await listAppVersions(deps.db);
    ctx.body = versions;
  });

  router.post('/:version/release', async (ctx) => {
    const { version } = parseParams(ctx, versionParams);
    ctx.body = await releaseAppVersion(deps.db, actorOf(ctx), version);
    markAudited(ctx);
  });

  router.delete('/:version/release', async (ctx) => {
    const { version } = parseParams(ctx, versionParams);
    ctx.body = await withdrawAppVersion(deps.db, actorOf(ctx), version);
    markAudited(ctx);
  });

  // popups a person taught from the live screen (admin/devices/taught-overlays.ts)
  router.get('/:version/overlays', async (ctx) => {
    operatorOf(ctx);
    const { version } = parseParams(ctx, versionParams);
    ctx.body = { overlays: await listTaughtOverlays(deps.db, version) };
  });

  router.post('/:version/overlays', async (ctx) => {
    const { version } = parseParams(ctx, versionParams);
    const body = parseBody(ctx, teachBodySchema);
    ctx.status = 201;
    ctx.body = await teachOverlay(deps.db, actorOf(ctx), version, body);
    markAudited(ctx);
  });

  router.post('/:version/overlays/:id/review', async (ctx) => {
    const { version, id } = parseParams(ctx, overlayParams);
    ctx.body = await reviewOverlay(deps.db, actorOf(ctx), version, id);
    markAudited(ctx);
  });

  router.delete('/:version/overlays/:id', async (ctx) => {
    const { version, id } = parseParams(ctx, overlayParams);
    await retireOverlay(deps.db, actorOf(ctx), version, id);
    markAudited(ctx);
    ctx.status = 204;
  });

  return router;
}
