import { LOGIN_ROUTE, currentRoute, navigate } from '../router';

const CSRF_KEY = 'cmautobuy.csrf';
const RETURN_KEY = 'cmautobuy.returnTo';
const TIMEOUT_MS = 30_000;
// An upload is read and written whole by the admin before it answers; large workbooks take a while.
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/** Every failure of an API call, server-side or not, arrives as one of these. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the request never got an HTTP answer. */
    readonly status: number,
    /** Server's UPPER_SNAKE code, or NETWORK_ERROR / TIMEOUT / BAD_RESPONSE from the client. */
    readonly code: string,
    message: string,
    readonly details: unknown = undefined,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Defaults to 30 s, so a hung admin never hangs the UI. */
  timeoutMs?: number;
  /**
   * Leave a 401 to the caller instead of redirecting to login. Login itself needs this: a 401
   * there means wrong credentials, not an expired session.
   */
  noAuthRedirect?: boolean;
}

// sessionStorage, not localStorage: the token should die with the tab, and it is useless
// without the HttpOnly cookie anyway.
function getCsrfToken(): string | null {
  return sessionStorage.getItem(CSRF_KEY);
}

export function setCsrfToken(token: string): void {
  sessionStorage.setItem(CSRF_KEY, token);
}

export function clearCsrfToken(): void {
  sessionStorage.removeItem(CSRF_KEY);
}

/**
 * Remember where the operator was when the session ran out, so login can put them back.
 * Kept in sessionStorage so a reload of the login page does not lose it.
 */
function rememberRoute(route: string): void {
  if (route === LOGIN_ROUTE || route.startsWith(`${LOGIN_ROUTE}?`)) return;
  sessionStorage.setItem(RETURN_KEY, route);
}

/** The remembered route, once; null when there is none. */
export function takeReturnRoute(): string | null {
  const route = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  return route;
}

export function forgetReturnRoute(): void {
  sessionStorage.removeItem(RETURN_KEY);
}

/** Send the operator to login without losing the page they were on. */
function requireLogin(): void {
  clearCsrfToken();
  rememberRoute(currentRoute());
  navigate(LOGIN_ROUTE);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function isErrorBody(v: unknown): v is { error: { code?: unknown; message?: unknown; details?: unknown } } {
  return typeof v === 'object' && v !== null && 'error' in v && typeof v.error === 'object' && v.error !== null;
}

function toApiError(status: number, body: unknown): ApiError {
  if (isErrorBody(body)) {
    const { code, message, details } = body.error;
    return new ApiError(
      status,
      typeof code === 'string' && code !== '' ? code : `HTTP_${status}`,
      typeof message === 'string' ? message : '',
      details,
    );
  }
  return new ApiError(status, `HTTP_${status}`, '');
}

/** Merge the caller's signal with our own timeout, so a hung admin never hangs the UI. */
function withTimeout(
  outer: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal; timedOut: () => boolean; done: () => void } {
  const ctrl = new AbortController();
  let expired = false;
  const timer = window.setTimeout(() => {
    expired = true;
    ctrl.abort();
  }, ms);
  const onAbort = (): void => ctrl.abort();
  if (outer?.aborted) ctrl.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: ctrl.signal,
    timedOut: () => expired,
    done: () => {
      window.clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * sessionStorage is per tab: a tab opened later has the session cookie but no token, so its
 * first mutating call is refused. Logging in again is the only way to get a token back.
 */
function isCsrfRejection(err: ApiError): boolean {
  return err.status === 403 && err.code.includes('CSRF');
}

async function request<T>(method: Method, path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    // The browser must set the multipart boundary itself.
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (method !== 'GET') Object.assign(headers, csrfHeader());

  const t = withTimeout(opts.signal, opts.timeoutMs ?? TIMEOUT_MS);
  let res: Response;
  let text: string;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: t.signal });
    text = await res.text();
  } catch (err) {
    if (opts.signal?.aborted && !t.timedOut()) throw err; // the caller cancelled; not an error to show
    if (t.timedOut()) throw new ApiError(0, 'TIMEOUT', '请求超时');
    throw new ApiError(0, 'NETWORK_ERROR', err instanceof Error ? err.message : String(err));
  } finally {
    t.done();
  }

  return decode<T>(res.status, text, opts);
}

/** One answer of the admin, fetch or XHR alike: the JSON body, or the ApiError it stands for. */
function decode<T>(status: number, text: string, opts: RequestOptions): T {
  const ok = status >= 200 && status < 300;
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      // A proxy error page or a misrouted SPA fallback; the status still tells us something.
      if (ok) throw new ApiError(status, 'BAD_RESPONSE', '服务返回了非 JSON 内容');
    }
  }

  if (ok) return parsed as T;

  const err = toApiError(status, parsed);
  if (!opts.noAuthRedirect && (status === 401 || isCsrfRejection(err))) requireLogin();
  throw err;
}

function csrfHeader(): Record<string, string> {
  const token = getCsrfToken();
  return token === null ? {} : { 'X-CSRF-Token': token };
}

/**
 * POST a multipart form with upload progress, which fetch cannot report: `onProgress` gets the
 * uploaded fraction, then null while the admin works on the file.
 */
function upload<T>(path: string, form: FormData, onProgress: (fraction: number | null) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [k, v] of Object.entries(csrfHeader())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.lengthComputable ? e.loaded / e.total : null);
    xhr.upload.onload = () => onProgress(null);
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', '网络错误'));
    xhr.ontimeout = () => reject(new ApiError(0, 'TIMEOUT', '请求超时'));
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.onload = () => {
      try {
        resolve(decode<T>(xhr.status, xhr.responseText, {}));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    };
    xhr.send(form);
  });
}

/**
 * GET a route that needs no session and answers with a JSON body whatever its status (a 503
 * still says which part is down). Never redirects to login; any failure is null.
 */
async function probe<T>(path: string, timeoutMs: number): Promise<T | null> {
  const t = withTimeout(undefined, timeoutMs);
  try {
    const res = await fetch(path, { cache: 'no-store', signal: t.signal, headers: { Accept: 'application/json' } });
    const body: unknown = await res.json();
    return typeof body === 'object' && body !== null ? (body as T) : null;
  } catch {
    return null;
  } finally {
    t.done();
  }
}

/**
 * The transport for ./endpoints.ts, the only module that names API paths. Paths are absolute;
 * the UI is always served by the admin (or the Vite proxy in dev), so same-origin cookies carry
 * the session. The type parameter is the caller's promise about the response
 * shape; nothing checks it.
 */
export const http = {
  get<T = unknown>(path: string, opts?: RequestOptions): Promise<T> {
    return request<T>('GET', path, undefined, opts);
  },
  post<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>('POST', path, body, opts);
  },
  put<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>('PUT', path, body, opts);
  },
  patch<T = unknown>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>('PATCH', path, body, opts);
  },
  del<T = unknown>(path: string, opts?: RequestOptions): Promise<T> {
    return request<T>('DELETE', path, undefined, opts);
  },
  upload,
  probe,
};

/** Build '?a=1&b=2' from the defined, non-empty entries; '' when there are none. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}
