import crypto from 'node:crypto';
import type http from 'node:http';
import { z } from 'zod';
import { taipeiLocal, type Shipment } from './data';
import { ok, RawJson, readJson, Reply, serviceError } from './reply';
import type { RawShipment, Session, SybState } from './state';

/*
 * The service side of docs/syb-protocol.md: login, the shipment list and a shipment's detail,
 * with the real service's quirks (HTTP 200 for its own errors, mixed units in the list).
 */

const SESSION_COOKIE = 'SYB_SESSION';
const JWT_LIFETIME_S = 24 * 3600;
const DEFAULT_PAGE_SIZE = 50;

/** The live session the request's cookie names; one past the `session_ttl_s` fault is forgotten. */
function sessionOf(state: SybState, req: http.IncomingMessage): Session | undefined {
  const header = req.headers.cookie ?? '';
  const value = header
    .split(';')
    .map((p) => p.trim().split('='))
    .find(([name]) => name === SESSION_COOKIE)?.[1];
  if (!value) return undefined;
  const session = state.sessions.get(value);
  if (!session) return undefined;
  const ttl = state.faults.session_ttl_s;
  if (ttl !== undefined && ttl !== null && Date.now() - session.createdMs >= ttl * 1000) {
    state.sessions.delete(value);
    return undefined;
  }
  return session;
}

export function requireSession(state: SybState, req: http.IncomingMessage): Session {
  const session = sessionOf(state, req);
  // A real expired session: HTTP 200 with the service's own code 401 (docs/syb-protocol.md).
  if (!session) throw new Reply(200, serviceError(401, '登录已失效，请重新登录'));
  return session;
}

function jwt(state: SybState, username: string): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: username, iat: now, exp: now + JWT_LIFETIME_S })}`;
  return `${head}.${crypto.createHmac('sha256', state.jwtKey).update(head).digest('base64url')}`;
}

export async function login(state: SybState, req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> {
  const { credentials } = state;
  const body = z.object({ username: z.string(), password: z.string() }).safeParse(await readJson(req));
  if (!body.success) throw new Reply(200, serviceError(400, '请输入用户名和密码'));
  const same = (a: string, b: string) =>
    a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
  if (!same(body.data.username, credentials.username) || !same(body.data.password, credentials.password)) {
    throw new Reply(200, serviceError(1001, '用户名或密码错误'));
  }
  const sid = crypto.randomBytes(24).toString('hex');
  state.sessions.set(sid, { username: body.data.username, createdMs: Date.now() });
  res.setHeader('set-cookie', [`${SESSION_COOKIE}=${sid}; Path=/; HttpOnly`, `SYB_LANG=zh_TW; Path=/`]);
  return ok({ token: jwt(state, body.data.username), tokenType: 'Bearer', expiresIn: JWT_LIFETIME_S });
}

/** One page of the shipments created between two days, oldest first; the `fail_page` fault fails one page. */
export function list(state: SybState, query: URLSearchParams): unknown {
  const { faults } = state;
  const day = /^\d{4}-\d{2}-\d{2}$/;
  const start = query.get('createdStart') ?? '';
  const end = query.get('createdEnd') ?? '';
  if (!day.test(start) || !day.test(end))
    throw new Reply(200, serviceError(400, 'createdStart/createdEnd 须为 yyyy-MM-dd'));
  const pageNum = Number(query.get('pageNum') ?? '1');
  if (!Number.isInteger(pageNum) || pageNum < 1) throw new Reply(200, serviceError(400, 'pageNum 须为正整数'));
  if (faults.fail_page !== undefined && faults.fail_page !== null && faults.fail_page === pageNum) {
    throw new Reply(faults.fail_status ?? 500, serviceError(faults.fail_status ?? 500, '系统繁忙，请稍后再试'));
  }
  const pageSize = faults.page_size ?? DEFAULT_PAGE_SIZE;
  if (faults.costly_list) return costlyAnswer('{"pages":1,"list":', '}');
  if (faults.flood_lines) return floodPage(pageNum, pageSize);
  const all: Array<Shipment | RawShipment> = [...state.shipments.values(), ...state.raw.values()];
  const matching = all
    .filter((s) => s.created.slice(0, 10) >= start && s.created.slice(0, 10) <= end)
    .sort((a, b) => (a.created === b.created ? (a.id < b.id ? -1 : 1) : a.created < b.created ? -1 : 1));
  const rows = matching.slice((pageNum - 1) * pageSize, pageNum * pageSize).map(listRow);
  return ok({ total: matching.length, pageNum, pageSize, pages: Math.ceil(matching.length / pageSize), list: rows });
}

function listRow(s: Shipment | RawShipment) {
  const details: unknown[] = Array.isArray(s.details) ? s.details : [];
  const totalCent = details.reduce<number>((sum, d) => sum + lineCentsLoose(d), 0);
  return {
    id: s.id,
    code: s.code,
    orderCode: s.orderCode ?? null,
    created: s.created,
    receiverName: (s.receiver as { name?: unknown } | undefined)?.name ?? null,
    itemCount: details.length,
    // Mixed units, as the real list: the total in 分 (integer), the declared value in 元 (text).
    totalAmount: totalCent,
    declaredValue: (totalCent / 100).toFixed(2),
  };
}

/*
 * A hostile upstream (the `flood_lines`, `costly_shipment` and `costly_list` faults): a list
 * that claims a million pages and lists new shipments on each, every one with many lines, and
 * answers of ten million empty objects — cheap to send, costly to parse. Generated, never stored.
 */
const FLOOD_PREFIX = 'FLOOD-';
const FLOOD_PAGES = 1_000_000;

function floodPage(pageNum: number, pageSize: number): unknown {
  const created = taipeiLocal(new Date());
  const list = Array.from({ length: pageSize }, (_, i) => ({ id: `${FLOOD_PREFIX}${pageNum}-${i + 1}`, created }));
  return ok({ total: FLOOD_PAGES * pageSize, pageNum, pageSize, pages: FLOOD_PAGES, list });
}

function floodDetail(id: string, lines: number): unknown {
  return ok({
    id,
    code: `TW-${id}`,
    orderCode: null,
    created: taipeiLocal(new Date()),
    details: Array.from({ length: lines }, (_, i) => ({
      id: `${id}-L${i + 1}`,
      productId: '99900000001',
      title: '洪水商品',
      spec: null,
      quantity: 1,
      price: '1',
      imageUrl: null,
    })),
  });
}

/** 31 MB: ten million `{}` in one array, each costing the parser a heap object. */
function costlyAnswer(before: string, after: string): RawJson {
  const empties = Math.floor((31 * 1024 * 1024) / 3);
  return new RawJson(`{"code":0,"msg":"success","data":${before}[${'{},'.repeat(empties)}{}]${after}}`);
}

/** One shipment with its lines; a raw one exactly as given, nothing added or checked. */
export function detail(state: SybState, query: URLSearchParams): unknown {
  const id = query.get('stockId') ?? '';
  if (state.faults.costly_shipment === id) return costlyAnswer(`{"id":${JSON.stringify(id)},"details":`, '}');
  if (state.faults.flood_lines && id.startsWith(FLOOD_PREFIX)) return floodDetail(id, state.faults.flood_lines);
  const r = state.raw.get(id);
  if (r) return ok(r);
  const s = state.shipments.get(id);
  if (!s) throw new Reply(200, serviceError(404, '货运单不存在'));
  return ok({
    id: s.id,
    code: s.code,
    orderCode: s.orderCode ?? null,
    created: s.created,
    receiver: s.receiver,
    details: s.details.map((d) => ({ ...d, imageUrl: d.imageUrl ?? null })),
  });
}

/** The list's own total only (never what the admin stores): cents of a 元 string, truncated; 0 for raw junk. */
function lineCentsLoose(line: unknown): number {
  const { price, quantity } = (line ?? {}) as { price?: unknown; quantity?: unknown };
  if (typeof price !== 'string' || typeof quantity !== 'number') return 0;
  const [whole = '0', frac = ''] = price.split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
  return Number.isFinite(cents * quantity) ? cents * quantity : 0;
}
