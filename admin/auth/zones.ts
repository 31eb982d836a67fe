/**
 * Which identity a request needs, decided from the method and path alone, before any route or
 * body parser runs. Everything under /api is protected unless listed here, so a router added
 * later is protected without doing anything.
 */
export type Zone = 'public' | 'login' | 'device' | 'host' | 'operator' | 'codec' | 'metrics';

/** Prometheus HTTP service discovery: an operator's session or the metrics token (docs/operations.md §3). */
const METRICS_TARGETS_PATH = '/api/metrics/targets';

/**
 * The Temporal codec-server endpoints (admin/http/routes/codec.ts): an operator's session, but
 * no CSRF token, because the Temporal Web UI and CLI speak the codec protocol and know no
 * token. They change nothing, the session cookie is SameSite=Strict, and only the Web UI's
 * origin may read an answer (admin/http/codec-cors.ts).
 */
export const CODEC_PATHS = ['/api/codec/decode', '/api/codec/encode'];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isMutating(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

export function zoneOf(method: string, rawPath: string): Zone {
  // The router matches case-insensitively and tolerates a trailing slash; so must we.
  const p = rawPath.replace(/\/{2,}/g, '/').toLowerCase();
  const m = method.toUpperCase();
  const api = p === '/api' || p.startsWith('/api/');
  // Outside /api only reads are public (the UI shell, /healthz); a stray write route is not.
  if (!api) return m === 'GET' || m === 'HEAD' ? 'public' : 'operator';
  if (p === '/api/device' || p.startsWith('/api/device/')) return 'device';
  if (p === '/api/host' || p.startsWith('/api/host/')) return 'host';
  if ((p === '/api/session' || p === '/api/session/') && m === 'POST') return 'login';
  if (m === 'POST' && CODEC_PATHS.includes(p.replace(/\/$/, ''))) return 'codec';
  if ((m === 'GET' || m === 'HEAD') && p.replace(/\/$/, '') === METRICS_TARGETS_PATH) return 'metrics';
  return 'operator';
}
