import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { allowedHostNames, checkApiRequest, checkHost } from '../../platform/http-guard';
import { defaultShipments, shipmentsBodySchema, type Shipment } from './data';

/**
 * The 顺运宝 simulator: the service side of docs/syb-protocol.md plus the control API under
 * `/control/` (loopback only, no authentication). Data, sessions, faults and the request log
 * live in memory; no request or response body is ever logged, so recipient data found under a
 * data dir can only have come from the admin.
 */
export interface SybSimOptions {
  /** 0 = a free port */
  port: number;
  host?: string;
  username?: string;
  password?: string;
  shipments?: Shipment[];
}

export interface SybSim {
  url: string;
  port: number;
  credentials: { username: string; password: string };
  close(): Promise<void>;
}

const faultsSchema = z
  .object({
    page_size: z.number().int().min(1).max(1000).optional(),
    fail_page: z.number().int().min(1).nullable().optional(),
    fail_status: z.number().int().min(400).max(599).optional(),
    session_ttl_s: z.number().int().min(0).nullable().optional(),
    latency_ms: z.number().int().min(0).max(60_000).optional(),
  })
  .strict();
type Faults = z.infer<typeof faultsSchema>;

interface RequestRecord {
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  cookie: boolean;
  authorization: boolean;
  status: number;
}

interface Session {
  username: string;
  createdMs: number;
}

const SESSION_COOKIE = 'SYB_SESSION';
const JWT_LIFETIME_S = 24 * 3600;
const DEFAULT_PAGE_SIZE = 50;

class Reply extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`reply ${status}`);
  }
}

const serviceError = (code: number, msg: string) => ({ code, msg, data: null });
const ok = (data: unknown) => ({ code: 0, msg: 'success', data });

export async function startSybSim(opts: SybSimOptions): Promise<SybSim> {
  const host = opts.host ?? '127.0.0.1';
  const allowedHosts = allowedHostNames(host);
  const credentials = { username: opts.username ?? 'syb-demo', password: opts.password ?? 'syb-demo-password' };
  const jwtKey = crypto.randomBytes(32);
  let shipments = new Map<string, Shipment>((opts.shipments ?? defaultShipments()).map((s) => [s.id, s]));
  // Hostile upstream: served exactly as given (SYB-style raw data), kept apart from the checked set.
  let raw = new Map<string, RawShipment>();
  let faults: Faults = {};
  let requests: RequestRecord[] = [];
  const sessions = new Map<string, Session>();

  const sessionOf = (req: http.IncomingMessage): Session | undefined => {
    const header = req.headers.cookie ?? '';
    const value = header
      .split(';')
      .map((p) => p.trim().split('='))
      .find(([name]) => name === SESSION_COOKIE)?.[1];
    if (!value) return undefined;
    const session = sessions.get(value);
    if (!session) return undefined;
    const ttl = faults.session_ttl_s;
    if (ttl !== undefined && ttl !== null && Date.now() - session.createdMs >= ttl * 1000) {
      sessions.delete(value);
      return undefined;
    }
    return session;
  };

  const requireSession = (req: http.IncomingMessage): Session => {
    const session = sessionOf(req);
    // A real expired session: HTTP 200 with the service's own code 401 (docs/syb-protocol.md).
    if (!session) throw new Reply(200, serviceError(401, '登录已失效，请重新登录'));
    return session;
  };

  const jwt = (username: string): string => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: username, iat: now, exp: now + JWT_LIFETIME_S })}`;
    return `${head}.${crypto.createHmac('sha256', jwtKey).update(head).digest('base64url')}`;
  };

  const login = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = z.object({ username: z.string(), password: z.string() }).safeParse(await readJson(req));
    if (!body.success) throw new Reply(200, serviceError(400, '请输入用户名和密码'));
    const same = (a: string, b: string) =>
      a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
    if (!same(body.data.username, credentials.username) || !same(body.data.password, credentials.password)) {
      throw new Reply(200, serviceError(1001, '用户名或密码错误'));
    }
    const sid = crypto.randomBytes(24).toString('hex');
    sessions.set(sid, { username: body.data.username, createdMs: Date.now() });
    res.setHeader('set-cookie', [`${SESSION_COOKIE}=${sid}; Path=/; HttpOnly`, `SYB_LANG=zh_TW; Path=/`]);
    return ok({ token: jwt(body.data.username), tokenType: 'Bearer', expiresIn: JWT_LIFETIME_S });
  };

  const list = (query: URLSearchParams) => {
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
    const all: Array<Shipment | RawShipment> = [...shipments.values(), ...raw.values()];
    const matching = all
      .filter((s) => s.created.slice(0, 10) >= start && s.created.slice(0, 10) <= end)
      .sort((a, b) => (a.created === b.created ? (a.id < b.id ? -1 : 1) : a.created < b.created ? -1 : 1));
    const rows = matching.slice((pageNum - 1) * pageSize, pageNum * pageSize).map((s) => {
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
    });
    return ok({ total: matching.length, pageNum, pageSize, pages: Math.ceil(matching.length / pageSize), list: rows });
  };

  const detail = (query: URLSearchParams) => {
    const id = query.get('stockId') ?? '';
    const r = raw.get(id);
    // Raw: every field as given, nothing added or checked.
    if (r) return ok(r);
    const s = shipments.get(id);
    if (!s) throw new Reply(200, serviceError(404, '货运单不存在'));
    return ok({
      id: s.id,
      code: s.code,
      orderCode: s.orderCode ?? null,
      created: s.created,
      receiver: s.receiver,
      details: s.details.map((d) => ({ ...d, imageUrl: d.imageUrl ?? null })),
    });
  };

  const control = async (req: http.IncomingMessage, path: string): Promise<[number, unknown]> => {
    const route = `${req.method} ${path}`;
    switch (route) {
      case 'PUT /control/shipments':
      case 'POST /control/shipments': {
        const body = shipmentsBodySchema.safeParse(await readJson(req));
        if (!body.success)
          return [400, { error: body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') }];
        if (req.method === 'PUT') shipments = new Map();
        for (const s of body.data.shipments) shipments.set(s.id, s);
        return [200, { shipments: shipments.size }];
      }
      case 'PUT /control/raw-shipments': {
        const body = rawBodySchema.safeParse(await readJson(req, RAW_BODY_MAX));
        if (!body.success)
          return [400, { error: body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') }];
        for (const s of body.data.shipments) raw.set(s.id, s);
        return [200, { raw_shipments: raw.size }];
      }
      case 'DELETE /control/raw-shipments':
        raw = new Map();
        return [200, { raw_shipments: 0 }];
      case 'PUT /control/faults': {
        const body = faultsSchema.safeParse(await readJson(req));
        if (!body.success)
          return [400, { error: body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') }];
        faults = { ...faults, ...body.data };
        return [200, faults];
      }
      case 'DELETE /control/faults':
        faults = {};
        return [200, faults];
      case 'GET /control/requests':
        return [200, requests];
      case 'DELETE /control/requests':
        requests = [];
        return [200, []];
      case 'GET /control/credentials':
        return [200, credentials];
      default:
        return [404, { error: `no control route ${route}` }];
    }
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const isControl = url.pathname.startsWith('/control/');
    const send = (status: number, body: unknown) => {
      if (!isControl) {
        requests.push({
          at: `${new Date().toISOString().slice(0, 19)}Z`,
          method: req.method ?? '',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          cookie: req.headers.cookie !== undefined,
          authorization: req.headers.authorization !== undefined,
          status,
        });
      }
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const handle = async (): Promise<void> => {
      // Loopback names only (DNS rebinding); the control API takes JSON from its own origin only,
      // so a web page cannot reset the data set with a text/plain POST.
      const refused = isControl
        ? checkApiRequest(req.method, req.headers, allowedHosts)
        : checkHost(req.headers, allowedHosts);
      if (refused) {
        req.resume();
        return send(
          refused.status,
          isControl ? { error: refused.message } : serviceError(refused.status, refused.message),
        );
      }
      if (isControl) {
        const [status, body] = await control(req, url.pathname);
        send(status, body);
        return;
      }
      if (faults.latency_ms) await new Promise((r) => setTimeout(r, faults.latency_ms));
      const route = `${req.method} ${url.pathname}`;
      if (route === 'POST /api/auth/login') return send(200, await login(req, res));
      if (route === 'GET /am/stock/list') {
        requireSession(req);
        return send(200, list(url.searchParams));
      }
      if (route === 'GET /am/stock/detail/listByStock') {
        requireSession(req);
        return send(200, detail(url.searchParams));
      }
      send(404, serviceError(404, `no such API ${route}`));
    };
    handle().catch((e: unknown) => {
      if (e instanceof Reply) send(e.status, e.body);
      else send(500, serviceError(500, e instanceof Error ? e.message : 'internal error'));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    credentials,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Raw shipments: anything in their fields, but an `id` and a `created` text so the list can page them. */
const rawShipmentSchema = z.looseObject({ id: z.string().min(1), created: z.string() });
type RawShipment = z.infer<typeof rawShipmentSchema> & { details?: unknown; receiver?: unknown };
const rawBodySchema = z.object({ shipments: z.array(rawShipmentSchema) }).strict();
const RAW_BODY_MAX = 64 * 1024 * 1024;

async function readJson(req: http.IncomingMessage, max = 10_000_000): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new Reply(413, { error: 'body too large' });
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Reply(400, { error: 'body: invalid JSON' });
  }
}

/** The list's own total only (never what the admin stores): cents of a 元 string, truncated; 0 for raw junk. */
function lineCentsLoose(line: unknown): number {
  const { price, quantity } = (line ?? {}) as { price?: unknown; quantity?: unknown };
  if (typeof price !== 'string' || typeof quantity !== 'number') return 0;
  const [whole = '0', frac = ''] = price.split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
  return Number.isFinite(cents * quantity) ? cents * quantity : 0;
}
