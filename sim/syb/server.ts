import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowedHostNames, checkApiRequest, checkHost } from '../../platform/http-guard';
import { control } from './control';
import type { Shipment } from './data';
import { RawJson, Reply, serviceError } from './reply';
import { detail, list, login, requireSession } from './service';
import { newState } from './state';

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

export async function startSybSim(opts: SybSimOptions): Promise<SybSim> {
  const host = opts.host ?? '127.0.0.1';
  const allowedHosts = allowedHostNames(host);
  const state = newState(opts);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const isControl = url.pathname.startsWith('/control/');
    const send = (status: number, body: unknown) => {
      if (!isControl) {
        state.requests.push({
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
      res.end(body instanceof RawJson ? body.text : JSON.stringify(body));
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
        const [status, body] = await control(state, req, url.pathname);
        send(status, body);
        return;
      }
      const latency = state.faults.latency_ms;
      if (latency) await new Promise((r) => setTimeout(r, latency));
      const route = `${req.method} ${url.pathname}`;
      if (route === 'POST /api/auth/login') return send(200, await login(state, req, res));
      if (route === 'GET /am/stock/list') {
        requireSession(state, req);
        return send(200, list(state, url.searchParams));
      }
      if (route === 'GET /am/stock/detail/listByStock') {
        requireSession(state, req);
        return send(200, detail(state, url.searchParams));
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
    credentials: state.credentials,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
