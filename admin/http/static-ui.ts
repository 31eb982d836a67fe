import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import { HttpError } from './errors';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Whether a path is the API's, as the router and the identity gate (admin/auth/zones.ts) see
 * it: case-insensitive, repeated slashes collapsed. `/API/DEVICE/x` is an API miss (a JSON
 * 404), never the UI shell.
 */
export function isApiPath(rawPath: string): boolean {
  const p = rawPath.replace(/\/{2,}/g, '/').toLowerCase();
  return p === '/api' || p.startsWith('/api/');
}

/**
 * Serves the built UI (ui/dist) and falls back to index.html for client routes. Only that
 * folder is ever served: the evidence store and the data dir are not reachable from here.
 */
export function staticUi(distDir: string): Middleware {
  const root = path.resolve(distDir);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (isApiPath(ctx.path) || ctx.path === '/healthz') return next();
    let decoded: string;
    try {
      decoded = decodeURIComponent(ctx.path);
    } catch {
      throw new HttpError(400, 'BAD_PATH', 'the path is not valid percent-encoded UTF-8');
    }
    if (decoded.includes('\0')) throw new HttpError(400, 'BAD_PATH', 'the path contains a NUL character');
    const requested = path.resolve(root, `.${decoded}`);
    if (!requested.startsWith(root + path.sep) && requested !== root) return next();
    let file = requested;
    let stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) {
      if (path.extname(ctx.path)) return next(); // a missing asset is a 404, not the app shell
      file = path.join(root, 'index.html');
      stat = await fs.promises.stat(file).catch(() => undefined);
      if (!stat?.isFile()) {
        ctx.status = 503;
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = 'UI not built: run `npm run build:ui` (npm start does this for you).';
        return;
      }
    }
    ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    ctx.length = stat.size;
    // Hashed assets never change; the shell must always be fresh after a deploy.
    ctx.set(
      'Cache-Control',
      file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
    ctx.body = ctx.method === 'HEAD' ? null : fs.createReadStream(file);
  };
}
