import Router from '@koa/router';
import { z } from 'zod';
import type { AppVersionView } from '../../../domain/devices';
import { markAudited } from '../../audit/audit';
import { actorOf, operatorOf } from '../../auth/principal';
import { listAppVersions, releaseAppVersion } from '../../devices/app-versions';
import type { AppDeps } from '../deps';
import { parseParams } from '../validate';

const versionParams = z.object({ version: z.string().trim().min(1).max(64) });

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

  return router;
}
