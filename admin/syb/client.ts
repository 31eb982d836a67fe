import { SYB_LIMITS } from '../../domain/syb';
import { AnswerParser, AnswerTooCostly, type AnswerKinds, type Projected, type Scalar } from './answer-parser';
import { readShipment, type ReadShipment } from './lines';
import { pinSybAddress, SybAddressRefused, type PinnedAddress } from './address';
import { pinnedFetch } from './pinned-fetch';

/**
 * The only code that knows the 顺运宝 wire protocol (docs/syb-protocol.md): login, the cookie
 * jar, the day-filtered list and the per-shipment detail. It never sends the JWT, takes prices
 * from the detail call only, and keeps only the fields it knows (an allow-list: the recipient's
 * name, phone and address and anything else SYB adds are dropped while parsing, in a worker
 * thread — answer-parser.ts), so nothing downstream can store, log or pass them on. Every answer
 * is read up to `SYB_LIMITS.answerBytes` only, and all of one sync's answers together up to its
 * byte budget (`limitSync`); a stopped sync aborts the call in flight.
 */

export interface SybAccount {
  url: string;
  username: string;
  password: string;
}

export type SybErrorCode =
  | 'SYB_NOT_CONFIGURED'
  | 'SYB_LOGIN_REFUSED'
  | 'SYB_UNAVAILABLE'
  | 'SYB_SESSION_LOST'
  | 'SYB_BAD_ANSWER'
  | 'SYB_ADDRESS_REFUSED'
  | 'SYB_ANSWER_TOO_COSTLY'
  | 'SYB_SYNC_BUDGET'
  | 'SYB_SYNC_CANCELLED';

export class SybError extends Error {
  override readonly name = 'SybError';
  constructor(
    readonly code: SybErrorCode,
    message: string,
  ) {
    super(message);
  }
  /**
   * A missing or wrong account does not heal by retrying; an answer too costly to read, a spent
   * budget or a stopped sync would only be fetched again at once: they wait for the Schedule's
   * next run. Everything else may be retried.
   */
  get retryable(): boolean {
    return !NOT_RETRYABLE.has(this.code);
  }
}

const NOT_RETRYABLE: ReadonlySet<SybErrorCode> = new Set<SybErrorCode>([
  'SYB_LOGIN_REFUSED',
  'SYB_NOT_CONFIGURED',
  'SYB_ADDRESS_REFUSED',
  'SYB_ANSWER_TOO_COSTLY',
  'SYB_SYNC_BUDGET',
  'SYB_SYNC_CANCELLED',
]);

export interface SybSession {
  /** `name=value` pairs as the service set them */
  cookies: Array<{ name: string; value: string }>;
  /** UTC; min(JWT exp, 24 h after login) */
  expiresAt: Date;
}

export type { SybLine } from './lines';

const SESSION_MAX_MS = 24 * 3600_000;
const CALL_TIMEOUT_MS = 20_000;
const EXPIRED_SESSION_CODE = 401;
const WRONG_ACCOUNT_CODE = 1001;
/** A login answer is a token and a few fields. */
const LOGIN_ANSWER_BYTES = 64 * 1024;

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
    /** shared by the clients of one admin, so its worker thread starts once; else owned and closed */
    shared?: AnswerParser,
  ) {
    this.parser = shared ?? new AnswerParser();
    this.ownsParser = shared === undefined;
  }

  private readonly parser: AnswerParser;
  private readonly ownsParser: boolean;
  /** the address checked at this client's first call; every call connects there */
  private pinned: PinnedAddress | undefined;
  /** bytes of every answer this client read (one client serves one sync) */
  private read = 0;
  private byteBudget = Number.POSITIVE_INFINITY;
  private stop: AbortSignal | undefined;

  /**
   * The sync's own bounds: answers past `bytes` in all are not read (SYB_SYNC_BUDGET), and once
   * `signal` aborts, the call in flight is abandoned and no other is made (SYB_SYNC_CANCELLED).
   */
  limitSync(limits: { bytes: number; signal?: AbortSignal | undefined }): void {
    this.byteBudget = limits.bytes;
    this.stop = limits.signal;
  }

  /** Bytes of all answers read so far. */
  get bytesRead(): number {
    return this.read;
  }

  /** Throws SYB_SYNC_CANCELLED once the sync was told to stop. */
  checkStopped(): void {
    if (this.stop?.aborted) throw stopped(this.stop);
  }

  /** Shipment ids of one list page, and how many pages SYB claims. Amounts are ignored (mixed units). */
  async listPage(
    fromDay: string,
    toDay: string,
    pageNum: number,
  ): Promise<{ shipmentIds: string[]; pages: number; refused: number }> {
    const data = await this.authed('list', '/am/stock/list', {
      createdStart: fromDay,
      createdEnd: toDay,
      pageNum: String(pageNum),
    });
    const pages = data?.pages;
    if (!data || typeof pages !== 'number' || !Number.isSafeInteger(pages) || pages < 0)
      throw new SybError('SYB_BAD_ANSWER', 'the SYB list answer has an unexpected shape (pages, list)');
    const ids = data.ids.filter(usableId);
    return { shipmentIds: ids, pages, refused: data.total - ids.length };
  }

  /**
   * The shipment's lines, one per `details[]` item (every one kept; those the adapter cannot use
   * carry `data_problem`). Throws only when the call itself failed: no answer, no JSON, no
   * `details` array — then nothing of the shipment is known.
   */
  async shipmentLines(shipmentId: string, fallbackCreatedAt: string): Promise<ReadShipment> {
    const data = await this.authed('detail', '/am/stock/detail/listByStock', { stockId: shipmentId });
    if (!data || data.details === null)
      throw new SybError('SYB_BAD_ANSWER', `the SYB detail of ${shipmentId} has no details list`);
    return readShipment(shipmentId, data, fallbackCreatedAt);
  }

  /** Ends the answer parser's worker thread, when this client started it. */
  async close(): Promise<void> {
    if (this.ownsParser) await this.parser.close();
  }

  private async authed<K extends 'list' | 'detail'>(
    kind: K,
    path: string,
    query: Record<string, string>,
  ): Promise<AnswerKinds[K]['data']> {
    if (!this.session || this.session.expiresAt.getTime() <= Date.now()) await this.login();
    const first = await this.call(kind, path, query);
    if (first.code !== EXPIRED_SESSION_CODE) return this.dataOf<AnswerKinds[K]['data']>(first, path);
    // The service ended the session before our cached expiry: log in again, once.
    await this.login();
    const second = await this.call(kind, path, query);
    if (second.code === EXPIRED_SESSION_CODE)
      throw new SybError('SYB_SESSION_LOST', 'SYB refused a fresh session; check the SYB URL and account');
    return this.dataOf<AnswerKinds[K]['data']>(second, path);
  }

  private dataOf<T>(answer: Projected<unknown>, path: string): T {
    if (answer.code !== 0)
      throw new SybError(
        'SYB_BAD_ANSWER',
        `SYB answered code ${shortText(answer.code)} to ${path}: ${shortText(answer.msg)}`,
      );
    return (answer.data ?? null) as T;
  }

  private async login(): Promise<void> {
    this.session = undefined;
    const res = await this.fetch(
      'POST',
      '/api/auth/login',
      {},
      JSON.stringify({ username: this.account.username, password: this.account.password }),
    );
    const answer = await this.answer(res, 'login', '/api/auth/login', LOGIN_ANSWER_BYTES);
    if (answer.code === WRONG_ACCOUNT_CODE)
      throw new SybError('SYB_LOGIN_REFUSED', 'SYB refused the user name or password; fix them on 设置 → 顺运宝');
    const token = this.dataOf<AnswerKinds['login']['data']>(answer, '/api/auth/login')?.token;
    if (typeof token !== 'string' || token === '')
      throw new SybError('SYB_BAD_ANSWER', 'the SYB login answer carries no token');
    const cookies = res.headers
      .getSetCookie()
      .slice(0, 20)
      .map((line) => line.split(';')[0]?.trim() ?? '')
      .map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1) }))
      .filter((c) => c.name !== '' && c.value !== '' && c.value.length <= 4096);
    if (cookies.length === 0) throw new SybError('SYB_BAD_ANSWER', 'the SYB login set no session cookie');
    const cap = Date.now() + SESSION_MAX_MS;
    const exp = jwtExpiry(token)?.getTime() ?? cap;
    this.session = { cookies, expiresAt: new Date(Math.min(exp, cap)) };
    this.onLogin(this.session);
  }

  private async call<K extends 'list' | 'detail'>(
    kind: K,
    path: string,
    query: Record<string, string>,
  ): Promise<AnswerKinds[K]> {
    return this.answer(await this.fetch('GET', path, query), kind, path, SYB_LIMITS.answerBytes);
  }

  private async fetch(method: string, path: string, query: Record<string, string>, body?: string): Promise<Response> {
    const url = new URL(path, this.account.url.endsWith('/') ? this.account.url : `${this.account.url}/`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    // Where the password goes: checked before the first call of this client (one sync), so a name
    // that now resolves to a private or metadata address is refused even after the settings took it;
    // every call of the sync then connects to that checked address (pinned-fetch.ts).
    if (!this.pinned) {
      try {
        this.pinned = await pinSybAddress(url.href);
      } catch (err) {
        if (err instanceof SybAddressRefused) throw new SybError('SYB_ADDRESS_REFUSED', err.message);
        throw err;
      }
    }
    this.checkStopped();
    // Cookies only: the login's JWT is never sent back.
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.session) headers.cookie = this.session.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    try {
      return await pinnedFetch(url, this.pinned, {
        method,
        headers,
        body,
        signal: this.stop
          ? AbortSignal.any([AbortSignal.timeout(CALL_TIMEOUT_MS), this.stop])
          : AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (err) {
      this.checkStopped();
      throw new SybError(
        'SYB_UNAVAILABLE',
        `SYB at ${url.origin} did not answer ${path} (${(err as Error).message}); check the SYB URL`,
      );
    }
  }

  private async answer<K extends keyof AnswerKinds>(
    res: Response,
    kind: K,
    path: string,
    maxBytes: number,
  ): Promise<AnswerKinds[K]> {
    if (res.status >= 500 || res.status === 429) {
      await res.body?.cancel().catch(() => undefined);
      throw new SybError('SYB_UNAVAILABLE', `SYB answered HTTP ${res.status} to ${path}; the next sync tries again`);
    }
    let projected: AnswerKinds[K];
    try {
      projected = await this.parser.parseStreamed(kind, (send) => this.readBody(res, maxBytes, path, send));
    } catch (err) {
      if (err instanceof SybError) throw err;
      if (err instanceof AnswerTooCostly)
        throw new SybError(
          'SYB_ANSWER_TOO_COSTLY',
          `SYB answered ${path} with more than can be parsed safely: ${err.message}`,
        );
      throw new SybError('SYB_BAD_ANSWER', `SYB answered ${path} with HTTP ${res.status} and no JSON`);
    }
    this.checkStopped();
    if (!projected.shape || typeof projected.code !== 'number')
      throw new SybError('SYB_BAD_ANSWER', `SYB answered ${path} with HTTP ${res.status} and no {code, data}`);
    return projected;
  }

  /**
   * The body, chunk by chunk to `send`, refused past `maxBytes` or past what is left of the sync's
   * byte budget without reading the rest (a declared length is believed only when it says "too
   * big"). A refusal by `send` (the parser found the answer too costly) also stops the reading.
   */
  private async readBody(
    res: Response,
    maxBytes: number,
    path: string,
    send: (chunk: Uint8Array) => void,
  ): Promise<void> {
    const tooBig = () =>
      new SybError(
        'SYB_BAD_ANSWER',
        `SYB answered ${path} with more than ${Math.round(maxBytes / 1048576)} MB; refused`,
      );
    const overBudget = () =>
      new SybError(
        'SYB_SYNC_BUDGET',
        `the answers of this sync passed ${Math.round(this.byteBudget / 1048576)} MB at ${path}; the rest is read by the next sync`,
      );
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxBytes || this.read + declared > this.byteBudget) {
      await res.body?.cancel().catch(() => undefined);
      throw declared > maxBytes ? tooBig() : overBudget();
    }
    if (!res.body) return;
    let size = 0;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        this.read += value.byteLength;
        if (size > maxBytes) throw tooBig();
        if (this.read > this.byteBudget) throw overBudget();
        send(value);
      }
    } catch (err) {
      await reader.cancel().catch(() => undefined);
      if (err instanceof SybError || err instanceof AnswerTooCostly) throw err;
      this.checkStopped();
      throw new SybError('SYB_UNAVAILABLE', `SYB's answer to ${path} broke off (${(err as Error).message})`);
    }
  }
}

function usableId(id: Scalar): id is string {
  return typeof id === 'string' && id !== '' && id.length <= SYB_LIMITS.idChars && /^[\x21-\x7e]+$/.test(id);
}

function shortText(v: Scalar): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, 200) : '';
}

/** The error of a sync told to stop (the activity cancelled, its workflow cancelled or terminated). */
function stopped(signal: AbortSignal): SybError {
  const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted');
  return new SybError('SYB_SYNC_CANCELLED', `the sync was stopped (${why.slice(0, 200)}); what was read is kept`);
}
