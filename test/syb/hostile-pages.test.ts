import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { syncSybOrders, sybSyncStatus } from '../../admin/syb/sync';
import { SYB_LIMITS } from '../../domain/syb';
import { startTestAdmin, type TestAdmin } from '../harness';
import { taipeiAt } from './helpers';

/**
 * A 顺运宝 that lies about its page count (docs/syb-protocol.md "The sync" 5): `pages: 1000000`.
 * A tiny loopback server speaking the wire protocol, since the simulator computes `pages`
 * honestly. Repeated pages end the walk at once; pages that keep listing new shipments end at
 * `SYB_LIMITS.pagesPerSync`, and then the cursor stays (not all was read).
 */
function liar(mode: 'repeat' | 'endless') {
  const calls = { list: 0, detail: 0 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/auth/login') {
      req.resume();
      res.setHeader('set-cookie', 'SYB_SESSION=s1; Path=/');
      return send({ code: 0, data: { token: 'a.b.c' } });
    }
    if (url.pathname === '/am/stock/list') {
      calls.list += 1;
      const page = Number(url.searchParams.get('pageNum'));
      const id = mode === 'repeat' ? 'P-1' : `P-${page}`;
      return send({ code: 0, data: { pages: 1_000_000, list: [{ id }] } });
    }
    if (url.pathname === '/am/stock/detail/listByStock') {
      calls.detail += 1;
      const id = url.searchParams.get('stockId') ?? '';
      return send({
        code: 0,
        data: {
          id,
          code: `TW-${id}`,
          created: taipeiAt(0, '08:00:00'),
          details: [{ id: `${id}-L1`, productId: '66600000001', title: 't', spec: null, quantity: 1, price: '1' }],
        },
      });
    }
    res.writeHead(404).end();
  });
  return { server, calls };
}

describe('SYB list that claims a million pages', () => {
  let admin: TestAdmin | undefined;
  let server: http.Server | undefined;
  afterEach(async () => {
    await admin?.close();
    await new Promise((r) => server?.close(r));
  });

  const start = async (mode: 'repeat' | 'endless') => {
    const l = liar(mode);
    server = l.server;
    await new Promise<void>((r) => l.server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(l.server.address() as AddressInfo).port}`;
    admin = await startTestAdmin({ runWorker: false, syb: { url, username: 'u', password: 'p' } });
    return l.calls;
  };

  it('a page with nothing new ends the walk: two list calls, the line stored, the cursor moved', async () => {
    const calls = await start('repeat');
    const counts = await syncSybOrders(admin!.syb);
    expect(calls.list).toBe(2);
    expect(calls.detail).toBe(1);
    expect(counts).toMatchObject({ lines: 1, new_lines: 1 });
    const status = await sybSyncStatus(admin!.db);
    expect(status).toMatchObject({ last_error: null });
    expect(status.last_synced_at).not.toBeNull();
  });

  it('pages that never end stop at the page limit; the cursor stays and last_error says why', async () => {
    const calls = await start('endless');
    const counts = await syncSybOrders(admin!.syb);
    expect(calls.list).toBe(SYB_LIMITS.pagesPerSync);
    expect(counts.lines).toBe(SYB_LIMITS.pagesPerSync);
    const status = await sybSyncStatus(admin!.db);
    expect(status.last_synced_at).toBeNull();
    expect(status.last_error).toMatch(/^SYB_PARTIAL: .*more than 200 pages/);
  }, 120_000);
});
