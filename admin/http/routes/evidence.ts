import Router from '@koa/router';
import { z } from 'zod';
import { operatorOf } from '../../auth/principal';
import type { AppDeps } from '../deps';
import { notFound } from '../../../domain/api-error';
import { parseParams } from '../validate';

const params = z.object({ id: z.uuid() });

/**
 * `GET /api/evidence/:id` (operators only). Screenshots may show addresses and phone numbers:
 * never cached, never sniffed as anything but PNG, and only ever served through this route.
 */
export function evidenceRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/evidence' });
  router.get('/:id', async (ctx) => {
    operatorOf(ctx);
    const { id } = parseParams(ctx, params);
    const found = await deps.security.evidence.open(id).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT')
        throw notFound('EVIDENCE_FILE_MISSING', `the file of evidence ${id} is missing from the evidence store`);
      throw err;
    });
    if (!found) throw notFound('EVIDENCE_NOT_FOUND', `no evidence ${id}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Disposition', `inline; filename="${id}.png"`);
    ctx.type = 'image/png';
    ctx.length = found.row.byte_size;
    ctx.body = found.stream;
  });
  return router;
}
