import http from 'node:http';
import type { Context, Middleware } from 'koa';
import { forbidden, unauthenticated, unavailable } from '../../domain/api-error';
import type { Logger } from '../../platform/logger';
import { TEMPORAL_UI_PATH } from '../../temporal/connection';
import { SESSION_COOKIE, type SessionStore } from '../auth/sessions';

/** Headers of this one connection (hop-by-hop, RFC 9110), never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);
/** The admin's own browser headers win over the Web UI's (platform/http-guard.ts). */
const ADMIN_HEADERS = new Set([
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
]);

/**
 * The Web UI is a SvelteKit page that starts itself with an inline script and inline styles,
 * which the admin's own policy forbids; everything else stays this origin's only.
 */
const UI_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The only POSTs the Web UI makes to read: a workflow query (the `state` query, the stack trace). */
const QUERY_PATH = new RegExp(`^${TEMPORAL_UI_PATH}/api/v1/namespaces/[^/]+/workflows/[^/]+/query/[^/]+$`);
const SETTINGS_PATH = `${TEMPORAL_UI_PATH}/api/v1/settings`;
/** Pages and their API answers change; the UI's hashed bundles do not. */
const IMMUTABLE_PATH = `${TEMPORAL_UI_PATH}/_app/immutable/`;
/** The admin's codec server (admin/http/routes/codec.ts), on this same origin. */
const CODEC_ENDPOINT = '/api/codec';

interface TemporalUiProxyOptions {
  /** the embedded Web UI (loopback, started with `--ui-public-path /temporal`); none: nothing is served */
  upstream: string | null | undefined;
  sessions: SessionStore;
  log: Logger;
}

/**
 * The embedded Temporal Web UI, served by the admin at `/temporal/` to logged-in operators
 * (docs/operations.md §1.1). On the admin's own origin the browser sends the operator's session
 * cookie with the UI's codec calls to `/api/codec`, so payloads read decoded in one click, with
 * no codec setting in any browser. Read-only: it answers reads and workflow queries, and the UI
 * it serves is told to hide its write actions — operators act on purchases in the admin, where
 * each action is audited (docs/security.md "Temporal access is admin access").
 *
 * Mounted before the identity gate: the UI's own POSTs carry the UI's CSRF token, not the
 * admin's, and its pages need a session too, which the gate would leave public.
 */
export function temporalUiProxy(opts: TemporalUiProxyOptions): Middleware {
  if (!opts.upstream) return (_ctx, next) => next();
  const target = new URL(opts.upstream);
  return async (ctx, next) => {
    if (ctx.path !== TEMPORAL_UI_PATH && !ctx.path.startsWith(`${TEMPORAL_UI_PATH}/`)) return next();
    if (!(await hasSession(ctx, opts))) {
      if (isPage(ctx)) return ctx.redirect('/');
      throw unauthenticated('UNAUTHENTICATED', 'log in to the admin first');
    }
    const isQuery = ctx.method === 'POST' && QUERY_PATH.test(ctx.path);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !isQuery)
      throw forbidden('TEMPORAL_UI_READ_ONLY', 'the Temporal Web UI is read-only here; act on a purchase in the admin');
    const origin = ctx.get('origin');
    if (isQuery && origin && new URL(origin).host !== ctx.host)
      throw forbidden('CSRF_TOKEN_INVALID', 'a workflow query from another origin');
    await forward(ctx, target, opts.log);
  };
}

async function hasSession(ctx: Context, opts: TemporalUiProxyOptions): Promise<boolean> {
  try {
    return (await opts.sessions.authenticate(ctx.cookies.get(SESSION_COOKIE))) !== null;
  } catch (err) {
    opts.log.error({ err: (err as Error).message, path: ctx.path }, 'session store unavailable');
    throw unavailable('AUTH_STORE_UNAVAILABLE', 'the admin cannot check sessions right now; try again shortly');
  }
}

/** A page the browser navigates to (not the UI's API or its scripts): it is sent to the login. */
function isPage(ctx: Context): boolean {
  return ctx.method === 'GET' && !ctx.path.startsWith(`${TEMPORAL_UI_PATH}/api/`) && !ctx.path.includes('/_app/');
}

function requestHeaders(ctx: Context, target: URL): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(ctx.headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  out.host = target.host;
  if (ctx.get('content-length')) out['content-length'] = ctx.get('content-length');
  // the operator's session is the admin's to check, not the Temporal server's to see
  const cookies = ctx
    .get('cookie')
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c !== '' && !c.startsWith(`${SESSION_COOKIE}=`));
  if (cookies.length > 0) out.cookie = cookies.join('; ');
  else delete out.cookie;
  // read whole and rewritten below
  if (ctx.path === SETTINGS_PATH) delete out['accept-encoding'];
  return out;
}

async function forward(ctx: Context, target: URL, log: Logger): Promise<void> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: ctx.method,
        path: ctx.url,
        headers: requestHeaders(ctx, target),
      },
      resolve,
    );
    req.on('error', reject);
    ctx.req.pipe(req);
  }).catch((err: unknown) => {
    log.warn({ err: (err as Error).message }, 'the Temporal Web UI does not answer');
    throw unavailable('TEMPORAL_UNAVAILABLE', 'the Temporal Web UI does not answer; try again shortly');
  });
  ctx.status = res.statusCode ?? 502;
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && !ADMIN_HEADERS.has(name)) ctx.set(name, value);
  ctx.set('Content-Security-Policy', UI_CSP);
  if (!ctx.path.startsWith(IMMUTABLE_PATH)) ctx.set('Cache-Control', 'no-store');
  if (ctx.path === SETTINGS_PATH && ctx.status === 200) {
    ctx.body = operatorSettings(JSON.parse(await readAll(res)) as Record<string, unknown>);
    return;
  }
  if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304) {
    res.resume();
    return;
  }
  ctx.body = res;
}

/**
 * The UI's settings as operators get them: payloads decoded by the admin on this origin, no
 * write action offered, and no news fetched from the internet.
 */
function operatorSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const codec = (settings.Codec ?? {}) as Record<string, unknown>;
  return {
    ...settings,
    Codec: { ...codec, Endpoint: CODEC_ENDPOINT, PassAccessToken: false, IncludeCredentials: false },
    DisableWriteActions: true,
    DisableNewsFetch: true,
  };
}

function readAll(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}
