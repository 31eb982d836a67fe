import { z } from 'zod';
import { taipeiLocalToUtc, twdYuanToCent } from '../../domain/syb';

/**
 * The only code that knows the 顺运宝 wire protocol (docs/syb-protocol.md): login, the cookie
 * jar, the day-filtered list and the per-shipment detail. It never sends the JWT, takes prices
 * from the detail call only, and drops the recipient's name, phone and address while parsing,
 * so nothing downstream can store, log or pass them on.
 */

export interface SybAccount {
  url: string;
  username: string;
  password: string;
}

export type SybErrorCode =
  'SYB_NOT_CONFIGURED' | 'SYB_LOGIN_REFUSED' | 'SYB_UNAVAILABLE' | 'SYB_SESSION_LOST' | 'SYB_BAD_ANSWER';

export class SybError extends Error {
  override readonly name = 'SybError';
  constructor(
    readonly code: SybErrorCode,
    message: string,
  ) {
    super(message);
  }
  /** a missing or wrong account does not heal by retrying; everything else may */
  get retryable(): boolean {
    return this.code !== 'SYB_LOGIN_REFUSED' && this.code !== 'SYB_NOT_CONFIGURED';
  }
}

export interface SybSession {
  /** `name=value` pairs as the service set them */
  cookies: Array<{ name: string; value: string }>;
  /** UTC; min(JWT exp, 24 h after login) */
  expiresAt: Date;
}

/** One order line as the admin keeps it: no recipient data, price in TWD cents. */
export interface SybLine {
  syb_id: string;
  order_no: string;
  shopee_goods_id: string;
  title: string;
  product_spec: string | null;
  quantity: number;
  price_twd_cent: number | null;
  image_url: string | null;
  /** UTC, from the shipment's Taipei `created` */
  created_at: string;
  syb_data: Record<string, unknown>;
}

const SESSION_MAX_MS = 24 * 3600_000;
const CALL_TIMEOUT_MS = 20_000;
const EXPIRED_SESSION_CODE = 401;
const WRONG_ACCOUNT_CODE = 1001;

const envelope = z
  .object({ code: z.number().int(), msg: z.string().nullable().optional(), data: z.unknown() })
  .passthrough();
const loginData = z.object({ token: z.string().min(1) }).passthrough();
const listData = z.object({
  pages: z.number().int().nonnegative(),
  list: z.array(z.object({ id: z.string().min(1) }).passthrough()),
});
const detailLine = z
  .object({
    id: z.string().min(1),
    productId: z.string().min(1),
    title: z.string(),
    spec: z.string().nullable(),
    quantity: z.number().int().positive(),
    price: z.string(),
    imageUrl: z.string().nullable().optional(),
  })
  .passthrough();
const detailData = z
  .object({
    id: z.string().min(1),
    code: z.string().min(1),
    created: z.string(),
    details: z.array(detailLine),
  })
  .passthrough();

/** Keys that carry the customer's personal data, at any depth of an answer we keep. */
const PERSONAL = /receiv|recipient|consignee|phone|mobile|^tel|address|addr$|idcard/i;

function withoutPersonalData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPersonalData);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !PERSONAL.test(k))
      .map(([k, v]) => [k, withoutPersonalData(v)]),
  );
}

/** The `exp` of a JWT, read without trusting or verifying it: it only shortens the cache. */
function jwtExpiry(token: string): Date | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const exp = (claims as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? new Date(exp * 1000) : null;
  } catch {
    return null;
  }
}

export class SybClient {
  constructor(
    private readonly account: SybAccount,
    /** the cached session (in memory, owned by the caller); replaced on every login */
    private session: SybSession | undefined,
    private readonly onLogin: (session: SybSession) => void = () => {},
  ) {}

  /** Shipment ids of one list page, and how many pages there are. Amounts are ignored (mixed units). */
  async listPage(fromDay: string, toDay: string, pageNum: number): Promise<{ shipmentIds: string[]; pages: number }> {
    const data = listData.safeParse(
      await this.authed('/am/stock/list', { createdStart: fromDay, createdEnd: toDay, pageNum: String(pageNum) }),
    );
    if (!data.success)
      throw new SybError(
        'SYB_BAD_ANSWER',
        `the SYB list answer has an unexpected shape (${data.error.issues[0]?.path.join('.') ?? '?'})`,
      );
    return { shipmentIds: data.data.list.map((s) => s.id), pages: data.data.pages };
  }

  /** The shipment's lines, one per `details[]` item, without the recipient. */
  async shipmentLines(shipmentId: string): Promise<SybLine[]> {
    const parsed = detailData.safeParse(await this.authed('/am/stock/detail/listByStock', { stockId: shipmentId }));
    if (!parsed.success)
      throw new SybError(
        'SYB_BAD_ANSWER',
        `the SYB detail of ${shipmentId} has an unexpected shape (${parsed.error.issues[0]?.path.join('.') ?? '?'})`,
      );
    const shipment = parsed.data;
    const createdAt = taipeiLocalToUtc(shipment.created);
    if (!createdAt)
      throw new SybError(
        'SYB_BAD_ANSWER',
        `shipment ${shipmentId} has created "${shipment.created}", not "YYYY-MM-DD HH:MM:SS"`,
      );
    const { details, ...outer } = shipment;
    const kept = withoutPersonalData(outer) as Record<string, unknown>;
    return details.map((d) => ({
      syb_id: d.id,
      order_no: shipment.code,
      shopee_goods_id: d.productId,
      title: d.title,
      product_spec: d.spec,
      quantity: d.quantity,
      price_twd_cent: twdYuanToCent(d.price),
      image_url: d.imageUrl ?? null,
      created_at: createdAt,
      syb_data: { schema_version: 1, shipment: kept, detail: withoutPersonalData(d) as Record<string, unknown> },
    }));
  }

  private async authed(path: string, query: Record<string, string>): Promise<unknown> {
    if (!this.session || this.session.expiresAt.getTime() <= Date.now()) await this.login();
    const first = await this.call('GET', path, query);
    if (first.code !== EXPIRED_SESSION_CODE) return this.dataOf(first, path);
    // The service ended the session before our cached expiry: log in again, once.
    await this.login();
    const second = await this.call('GET', path, query);
    if (second.code === EXPIRED_SESSION_CODE)
      throw new SybError('SYB_SESSION_LOST', 'SYB refused a fresh session; check the SYB URL and account');
    return this.dataOf(second, path);
  }

  private dataOf(answer: z.infer<typeof envelope>, path: string): unknown {
    if (answer.code !== 0)
      throw new SybError('SYB_BAD_ANSWER', `SYB answered code ${answer.code} to ${path}: ${answer.msg ?? ''}`);
    return answer.data;
  }

  private async login(): Promise<void> {
    this.session = undefined;
    const res = await this.fetch(
      'POST',
      '/api/auth/login',
      {},
      JSON.stringify({ username: this.account.username, password: this.account.password }),
    );
    const answer = await this.answer(res, '/api/auth/login');
    if (answer.code === WRONG_ACCOUNT_CODE)
      throw new SybError('SYB_LOGIN_REFUSED', 'SYB refused the user name or password; fix them on 设置 → 顺运宝');
    const data = loginData.safeParse(this.dataOf(answer, '/api/auth/login'));
    if (!data.success) throw new SybError('SYB_BAD_ANSWER', 'the SYB login answer carries no token');
    const cookies = res.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]?.trim() ?? '')
      .map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1) }))
      .filter((c) => c.name !== '' && c.value !== '');
    if (cookies.length === 0) throw new SybError('SYB_BAD_ANSWER', 'the SYB login set no session cookie');
    const cap = Date.now() + SESSION_MAX_MS;
    const exp = jwtExpiry(data.data.token)?.getTime() ?? cap;
    this.session = { cookies, expiresAt: new Date(Math.min(exp, cap)) };
    this.onLogin(this.session);
  }

  private async call(method: string, path: string, query: Record<string, string>): Promise<z.infer<typeof envelope>> {
    return this.answer(await this.fetch(method, path, query), path);
  }

  private async fetch(method: string, path: string, query: Record<string, string>, body?: string): Promise<Response> {
    const url = new URL(path, this.account.url.endsWith('/') ? this.account.url : `${this.account.url}/`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    // Cookies only: the login's JWT is never sent back.
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.session) headers.cookie = this.session.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    try {
      return await fetch(url, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (err) {
      throw new SybError(
        'SYB_UNAVAILABLE',
        `SYB at ${url.origin} did not answer ${path} (${(err as Error).message}); check the SYB URL`,
      );
    }
  }

  private async answer(res: Response, path: string): Promise<z.infer<typeof envelope>> {
    if (res.status >= 500 || res.status === 429)
      throw new SybError('SYB_UNAVAILABLE', `SYB answered HTTP ${res.status} to ${path}; the next sync tries again`);
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw new SybError('SYB_BAD_ANSWER', `SYB answered ${path} with HTTP ${res.status} and no JSON`);
    }
    const parsed = envelope.safeParse(json);
    if (!parsed.success)
      throw new SybError('SYB_BAD_ANSWER', `SYB answered ${path} with HTTP ${res.status} and no {code, data}`);
    return parsed.data;
  }
}
