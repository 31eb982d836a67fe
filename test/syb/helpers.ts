import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSybSim, type SybSim } from '../../sim/syb/server';
import type { Shipment } from '../../sim/syb/data';
import { taipeiDay } from '../../domain/syb';

export interface SimRequest {
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  cookie: boolean;
  authorization: boolean;
  status: number;
}

/** The SYB simulator on a free port, driven only through its HTTP control API. */
export async function startSim(shipments: Shipment[] = []): Promise<SybSim & { control: SimControl }> {
  const sim = await startSybSim({ port: 0, shipments });
  return Object.assign(sim, { control: new SimControl(sim.url) });
}

export class SimControl {
  constructor(private readonly url: string) {}
  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
    return res.json();
  }
  putShipments(shipments: Shipment[]) {
    return this.call('PUT', '/control/shipments', { shipments });
  }
  addShipments(shipments: Shipment[]) {
    return this.call('POST', '/control/shipments', { shipments });
  }
  faults(faults: Record<string, unknown>) {
    return this.call('PUT', '/control/faults', faults);
  }
  clearFaults() {
    return this.call('DELETE', '/control/faults');
  }
  async requests(): Promise<SimRequest[]> {
    return (await this.call('GET', '/control/requests')) as SimRequest[];
  }
  clearRequests() {
    return this.call('DELETE', '/control/requests');
  }
  async credentials(): Promise<{ username: string; password: string }> {
    return (await this.call('GET', '/control/credentials')) as { username: string; password: string };
  }
}

/** Recipient values no admin file may ever contain. */
export const RECIPIENT = { name: '測試收件人甲', phone: '0987654321', address: '高雄市苓雅區測試路77號9樓' };

/** Taipei local `YYYY-MM-DD HH:MM:SS` of today (offset in days) at the given time. */
export function taipeiAt(offsetDays: number, time: string): string {
  return `${taipeiDay(new Date(Date.now() + offsetDays * 86400_000))} ${time}`;
}

export function shipment(
  n: number,
  created: string,
  lines: Array<{ productId: string; spec: string | null; quantity?: number; price?: string; title?: string }>,
): Shipment {
  const id = `SH-T-${String(n).padStart(4, '0')}`;
  return {
    id,
    code: `TW-T-${String(n).padStart(4, '0')}`,
    orderCode: `OC-${n}`,
    created,
    receiver: { ...RECIPIENT },
    details: lines.map((l, i) => ({
      id: `${id}-L${i + 1}`,
      productId: l.productId,
      title: l.title ?? `商品 ${l.productId}`,
      spec: l.spec,
      quantity: l.quantity ?? 1,
      price: l.price ?? '100',
      imageUrl: `https://cf.shopee.tw/file/${l.productId}`,
    })),
  };
}

/** A shipment's detail with one line, as SYB's detail call answers it. */
export function oneLineDetail(id: string, productId: string) {
  return {
    id,
    code: `TW-${id}`,
    created: taipeiAt(0, '08:00:00'),
    details: [{ id: `${id}-L1`, productId, title: 't', spec: null, quantity: 1, price: '1' }],
  };
}

export interface WireSyb {
  server: http.Server;
  port: number;
  close(): Promise<void>;
}

/**
 * A tiny 顺运宝 on loopback that speaks the wire protocol itself, for answers the simulator never
 * gives (a page count that lies, a detail that never ends): every login succeeds; `list` answers
 * a list page's `data`, `detail` a shipment's `data` — or writes the response itself and returns
 * undefined. Any other path is a 404.
 */
export async function startWireSyb(answers: {
  list: (url: URL) => unknown;
  detail: (id: string, res: http.ServerResponse) => unknown;
  onRequest?: (req: http.IncomingMessage) => void;
}): Promise<WireSyb> {
  const server = http.createServer((req, res) => {
    answers.onRequest?.(req);
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (data: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 0, data }));
    };
    if (url.pathname === '/api/auth/login') {
      req.resume();
      res.setHeader('set-cookie', 'SYB_SESSION=s1; Path=/');
      return send({ token: 'a.b.c' });
    }
    if (url.pathname === '/am/stock/list') return send(answers.list(url));
    if (url.pathname === '/am/stock/detail/listByStock') {
      const data = answers.detail(url.searchParams.get('stockId') ?? '', res);
      return data === undefined ? undefined : send(data);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
