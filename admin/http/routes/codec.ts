import Router from '@koa/router';
import type { Context } from 'koa';
import { convertCodecPayloads, codecBodySchema } from '../../../temporal/codec/http-json';
import type { AppDeps } from '../deps';
import { invalidInput } from '../../../domain/api-error';
import { parseBody } from '../validate';

/**
 * `POST /api/codec/decode` and `/encode`: the codec server of the Temporal Web UI and CLI
 * (docs/operations.md "Payload keys"), for a logged-in operator (admin/auth/zones.ts), with the
 * Web UI's origin alone allowed by CORS (admin/http/codec-cors.ts). The keys are this admin's
 * namespace's, so a request naming another namespace in `X-Namespace` is refused.
 */
export function codecRoutes(deps: Pick<AppDeps, 'temporal'>): Router {
  const router = new Router();
  const handle = (op: 'decode' | 'encode') => async (ctx: Context) => {
    const namespace = ctx.get('x-namespace');
    if (namespace && namespace !== deps.temporal.settings.namespace)
      throw invalidInput(
        'CODEC_NAMESPACE_MISMATCH',
        `this codec serves the namespace ${deps.temporal.settings.namespace}, not ${namespace}`,
      );
    const body = parseBody(ctx, codecBodySchema);
    try {
      ctx.body = await convertCodecPayloads(op, body.payloads);
    } catch (err) {
      throw invalidInput('CODEC_FAILED', `cannot ${op}: ${(err as Error).message}`);
    }
  };
  router.post('/api/codec/decode', handle('decode'));
  router.post('/api/codec/encode', handle('encode'));
  return router;
}
