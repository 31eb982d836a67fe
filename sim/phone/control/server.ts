import http from 'node:http';
import { z } from 'zod';
import { allowedHostNames, checkApiRequest } from '../../../platform/http-guard';
import { challengeView } from '../app/challenge';
import { overlaysBodySchema } from '../app/hostile/schema';
import { templateInfos } from '../app/hostile/templates';
import { renderXml } from '../app/render-xml';
import { catalogSchema } from '../catalog/schema';
import { faultsSchema } from '../faults';
import { healthPatchSchema } from '../health';
import type { Registry } from '../registry';
import type { Phone } from '../phone';

const addDeviceSchema = z
  .object({
    serial: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, 'serial: letters, digits, . _ : - (1-64)'),
    app_version: z
      .string()
      .regex(/^\d+(\.\d+)*$/, 'app_version must look like 8.17.0')
      .optional(),
  })
  .strict();

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue && issue.path.length ? issue.path.map(String).join('.') : '(body)';
  throw new HttpError(400, `${field}: ${issue?.message ?? 'invalid'}`, field);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > 5_000_000) throw new HttpError(413, 'body too large');
    chunks.push(b);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'body: invalid JSON', '(body)');
  }
}

function deviceView(p: Phone): object {
  return {
    serial: p.serial,
    app_version: p.appVersion,
    screen: p.app.screenName(),
    online: p.online,
    state: p.booting ? 'offline' : 'device',
    overlays: p.app.visibleOverlays(),
  };
}

/** The sim's control API (sim/phone/SCREENS.md "Control API"): plain node http, zod-validated input. */
export class ControlServer {
  private readonly server: http.Server;
  // Loopback until listen() names the bind host; a page on another site never drives a phone.
  private allowedHosts = allowedHostNames(undefined);

  constructor(private readonly reg: Registry) {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        const status = e instanceof HttpError ? e.status : 500;
        const body: Record<string, string> = { error: e instanceof Error ? e.message : String(e) };
        if (e instanceof HttpError && e.field) body.field = e.field;
        if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.allowedHosts = allowedHostNames(host);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private phone(serial: string): Phone {
    const p = this.reg.phones.get(serial);
    if (!p) throw new HttpError(404, `device '${serial}' not found`, 'serial');
    return p;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = checkApiRequest(req.method, req.headers, this.allowedHosts);
    if (refused) {
      req.resume();
      throw new HttpError(refused.status, refused.message);
    }
    const url = new URL(req.url ?? '/', 'http://sim');
    const method = req.method ?? 'GET';
    let parts: string[];
    try {
      parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      throw new HttpError(400, 'the path is not valid percent-encoded UTF-8');
    }
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };

    if (parts[0] === 'health' && parts.length === 1) return json(200, { ok: true });
    if (parts[0] === 'overlays' && parts[1] === 'templates' && parts.length === 2 && method === 'GET')
      return json(200, templateInfos());
    if (parts[0] === 'catalog' && parts.length === 1) {
      if (method === 'GET') return json(200, this.reg.catalog);
      if (method === 'PUT') {
        this.reg.catalog = parseBody(catalogSchema, await readJson(req));
        return json(200, { goods: this.reg.catalog.goods.length });
      }
    }
    if (parts[0] === 'devices') {
      if (parts.length === 1 && method === 'GET') return json(200, [...this.reg.phones.values()].map(deviceView));
      if (parts.length === 1 && method === 'POST') {
        const body = parseBody(addDeviceSchema, await readJson(req));
        if (this.reg.phones.has(body.serial))
          throw new HttpError(409, `device '${body.serial}' already exists`, 'serial');
        return json(201, deviceView(this.reg.plugIn(body.serial, body.app_version)));
      }
      const serial = parts[1];
      if (serial !== undefined) {
        const phone = this.phone(serial);
        const sub = parts[2];
        if (parts.length === 2 && method === 'DELETE') {
          this.reg.remove(serial);
          return json(200, { removed: serial });
        }
        if (parts.length === 2 && method === 'GET') return json(200, deviceView(phone));
        if (sub === 'orders' && method === 'GET') {
          return json(
            200,
            phone.app.orders.map(({ order_no, goods_id, options, quantity, total_cent, placed_at, status }) => ({
              order_no,
              goods_id,
              options,
              quantity,
              total_cent,
              placed_at,
              status,
            })),
          );
        }
        if (sub === 'taps' && method === 'GET') return json(200, phone.taps);
        if (sub === 'challenge' && method === 'GET') return json(200, challengeView(phone.app.top()));
        if (sub === 'screen' && method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'x-screen': phone.app.screenName() });
          const system = phone.systemTree();
          res.end(system ? renderXml(system) : phone.app.currentXml());
          return;
        }
        if (sub === 'faults') {
          if (method === 'GET') return json(200, phone.faults);
          if (method === 'PUT') {
            const faults = parseBody(faultsSchema, (await readJson(req)) ?? {});
            return json(200, phone.setFaults(faults));
          }
          if (method === 'DELETE') {
            phone.clearFaults();
            return json(200, {});
          }
        }
        if (sub === 'overlays') {
          if (method === 'PUT') {
            const body = parseBody(overlaysBodySchema, (await readJson(req)) ?? {});
            phone.app.overlays.set(body.overlays);
          } else if (method === 'DELETE') phone.app.overlays.set([]);
          if (method === 'GET' || method === 'PUT' || method === 'DELETE')
            return json(200, { overlays: phone.app.overlays.view(phone.app.top()) });
        }
        if (sub === 'health') {
          if (method === 'GET') return json(200, phone.health);
          if (method === 'PUT') {
            const patch = parseBody(healthPatchSchema, (await readJson(req)) ?? {});
            return json(200, phone.setHealth(patch));
          }
        }
        if (sub === 'reset' && method === 'POST') {
          phone.reset();
          return json(200, deviceView(phone));
        }
      }
    }
    throw new HttpError(404, `no route ${method} ${url.pathname}`);
  }
}
