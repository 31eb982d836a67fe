import type { Middleware } from 'koa';
import { CODEC_PATHS } from '../auth/zones';

/**
 * CORS for the codec endpoints, for the Temporal Web UI's origin only (docs/operations.md
 * "Payload keys"): a cluster's UI runs on an origin of its own and calls `/api/codec/decode` from
 * the browser with the operator's session cookie. The embedded UI the admin serves itself
 * (`uiUrl` a path, admin/http/temporal-ui-proxy.ts) is same-origin and needs none. Mounted before
 * the identity gate, since a preflight carries no cookie; any other origin gets no CORS header,
 * so its page cannot read an answer.
 */
export function codecCors(uiUrl: string | null | undefined): Middleware {
  const allowed = uiUrl && URL.canParse(uiUrl) ? new URL(uiUrl).origin : null;
  return async (ctx, next) => {
    const p = ctx.path.toLowerCase().replace(/\/$/, '');
    if (!CODEC_PATHS.includes(p)) return next();
    const origin = ctx.get('origin');
    const fromUi = allowed !== null && origin === allowed;
    ctx.vary('Origin');
    if (fromUi) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Credentials', 'true');
    }
    if (ctx.method === 'OPTIONS') {
      ctx.status = fromUi ? 204 : 403;
      if (fromUi) {
        ctx.set('Access-Control-Allow-Methods', 'POST');
        ctx.set('Access-Control-Allow-Headers', 'content-type, x-namespace');
        ctx.set('Access-Control-Max-Age', '600');
      }
      return;
    }
    await next();
  };
}
