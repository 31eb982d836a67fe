import type { IncomingHttpHeaders } from 'node:http';

/**
 * Request checks every HTTP server of this system makes before it routes anything, as plain
 * functions so a Koa app and a bare `node:http` server (the simulators) share them.
 *
 * Host: a page on an attacker's site can make the browser send requests to 127.0.0.1 under
 * the attacker's own host name (DNS rebinding); such a request carries that name in `Host`.
 * Serving only the names we are reached by closes that door.
 *
 * JSON only: a cross-origin page may POST `text/plain` (or a form) without a CORS preflight;
 * it can never send `application/json` without one. An API that accepts JSON only therefore
 * cannot be driven from another site.
 */

/** The names of this machine every server answers to, whatever it is bound to. */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** The host name of a `Host` header without its port, lower-cased; '' when unreadable. */
export function hostNameOf(header: string | undefined): string {
  if (!header) return '';
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end > 0 ? value.slice(1, end) : '';
  }
  const colon = value.indexOf(':');
  return colon >= 0 ? value.slice(0, colon) : value;
}

/**
 * The host names a server answers to: loopback, plus the address it is bound to (unless that
 * is a wildcard, which names no host) and whatever the operator configured.
 */
export function allowedHostNames(bindHost: string | undefined, extra: readonly string[] = []): Set<string> {
  const names = new Set(LOOPBACK_HOSTS);
  for (const raw of [bindHost ?? '', ...extra]) {
    // a bare IPv6 address has colons of its own; hostNameOf expects it in brackets
    const name = hostNameOf(
      raw.includes(':') && !raw.startsWith('[') && raw.indexOf(':') !== raw.lastIndexOf(':') ? `[${raw}]` : raw,
    );
    if (name && name !== '0.0.0.0' && name !== '::') names.add(name);
  }
  return names;
}

export function checkHost(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): Refusal | null {
  const name = hostNameOf(headers.host);
  if (allowed.has(name)) return null;
  return {
    status: 421,
    code: 'HOST_NOT_ALLOWED',
    message: `this server does not answer to the host name "${name.slice(0, 100)}"; use ${[...allowed][0] ?? 'localhost'} or configure the name`,
  };
}

/** `application/json` (any charset), or `+json`. */
function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * A request that carries a body, or names a type for one, must say it is JSON. A body-less
 * POST cannot be told apart this way: `checkOrigin` is what refuses one from another site.
 */
function checkJsonBody(method: string | undefined, headers: IncomingHttpHeaders): Refusal | null {
  const m = (method ?? 'GET').toUpperCase();
  if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS') return null;
  const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  if (!hasBody && headers['content-type'] === undefined) return null;
  if (isJsonContentType(headers['content-type'])) return null;
  return { status: 415, code: 'JSON_ONLY', message: 'this API accepts only application/json bodies' };
}

/**
 * Browsers name the page a request comes from in `Origin` (always on a cross-origin POST);
 * scripts and tools send none. A request from a page of another host is refused outright.
 */
function checkOrigin(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): Refusal | null {
  const origin = headers.origin;
  if (origin === undefined) return null;
  let name = '';
  try {
    name = hostNameOf(new URL(origin).host);
  } catch {
    // "null" (a sandboxed page, a file) or garbage: not one of ours
  }
  if (allowed.has(name)) return null;
  return { status: 403, code: 'CROSS_ORIGIN', message: 'requests from other sites are not accepted' };
}

/** Host, Origin and (for an API that takes JSON only) the body type, in that order. */
export function checkApiRequest(
  method: string | undefined,
  headers: IncomingHttpHeaders,
  allowed: ReadonlySet<string>,
): Refusal | null {
  return checkHost(headers, allowed) ?? checkOrigin(headers, allowed) ?? checkJsonBody(method, headers);
}

/**
 * Headers for anything a browser renders from us. The UI is one built bundle served from the
 * same origin: scripts, styles, fonts and API calls from 'self' only; it is never framed, never
 * leaks its URLs (which hold task ids) in a Referer, and is never sniffed as another type.
 * `style-src-attr 'unsafe-inline'` lets the UI's components set `style` attributes (a progress
 * bar's width); style sheets and scripts still come only from the bundle.
 */
export const BROWSER_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};
