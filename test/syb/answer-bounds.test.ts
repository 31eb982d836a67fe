import dnsPromises from 'node:dns/promises';
import type http from 'node:http';
import { pinnedFetch } from '../../admin/syb/pinned-fetch';
import { syncSybOrders, sybSyncStatus } from '../../admin/syb/sync';
import { SYB_LIMITS } from '../../domain/syb';
import { startTestAdmin, type TestAdmin } from '../harness';
import { oneLineDetail, startWireSyb, taipeiAt, type WireSyb } from './helpers';

/**
 * A 顺运宝 on loopback that lists two shipments; the detail of `HUGE` streams more than
 * `SYB_LIMITS.answerBytes` without a Content-Length. Every request's Host header is recorded.
 */
function upstream(hosts: string[]): Promise<WireSyb> {
  return startWireSyb({
    onRequest: (req) => hosts.push(req.headers.host ?? ''),
    list: () => ({ pages: 1, list: [{ id: 'HUGE' }, { id: 'FINE' }] }),
    detail: (id, res) => {
      if (id !== 'HUGE') return oneLineDetail(id, '77700000001');
      // chunked: only counting while reading can stop it
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"code":0,"data":{"id":"HUGE","created":"${taipeiAt(0, '08:00:00')}","details":[`);
      const chunk = `${JSON.stringify({ id: 'H', productId: '1', title: 'x'.repeat(1024 * 1024), quantity: 1, price: '1' })},`;
      let sent = 0;
      const more = () => {
        while (sent <= SYB_LIMITS.answerBytes + 2 * chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('{}]}}');
      };
      res.on('error', () => undefined);
      more();
      return undefined;
    },
  });
}

describe('SYB answers: size cap and the checked address', () => {
  let admin: TestAdmin | undefined;
  let syb: WireSyb | undefined;
  let port = 0;
  let hosts: string[] = [];
  beforeEach(async () => {
    hosts = [];
    syb = await upstream(hosts);
    port = syb.port;
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await admin?.close();
    admin = undefined;
    await syb?.close();
  });

  it('an answer over the 32 MB cap is refused with its reason, nothing of it stored, the sync goes on', async () => {
    admin = await startTestAdmin({
      runWorker: false,
      syb: { url: `http://127.0.0.1:${port}`, username: 'u', password: 'p' },
    });
    const counts = await syncSybOrders(admin.syb);
    expect(counts).toMatchObject({ lines: 1, new_lines: 1 });
    const rows = await admin.db.selectFrom('syb_orders').select('syb_id').execute();
    expect(rows.map((r) => r.syb_id)).toEqual(['FINE-L1']);
    const status = await sybSyncStatus(admin.db);
    expect(status.last_error).toMatch(/HUGE/);
    expect(status.last_error).toMatch(/more than 32 MB; refused/);
  }, 120_000);

  it('every call of a sync connects to the address checked once, whatever the name resolves to later', async () => {
    // the name resolves once (the check) to loopback; a second answer would say the metadata address
    const lookup = jest.spyOn(dnsPromises, 'lookup');
    lookup.mockResolvedValueOnce([{ address: '127.0.0.1', family: 4 }] as never);
    lookup.mockResolvedValue([{ address: '169.254.169.254', family: 4 }] as never);
    admin = await startTestAdmin({
      runWorker: false,
      syb: { url: `http://syb.rebind.invalid:${port}`, username: 'u', password: 'p' },
    });
    const before = lookup.mock.calls.length;
    syb!.server.removeAllListeners('request');
    syb!.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      hosts.push(req.headers.host ?? '');
      req.resume();
      res.setHeader('set-cookie', 'SYB_SESSION=s1; Path=/');
      res.writeHead(200, { 'content-type': 'application/json' });
      const p = new URL(req.url ?? '/', 'http://x').pathname;
      res.end(
        JSON.stringify(
          p === '/api/auth/login' ? { code: 0, data: { token: 'a.b.c' } } : { code: 0, data: { pages: 0, list: [] } },
        ),
      );
    });
    await syncSybOrders(admin.syb);
    // one resolution for the sync (its check); login and list went to that address, Host kept the name
    expect(lookup.mock.calls.length - before).toBe(1);
    expect(hosts.length).toBeGreaterThanOrEqual(2);
    for (const h of hosts) expect(h).toBe(`syb.rebind.invalid:${port}`);
  });

  it('pinnedFetch never resolves the name it is given', async () => {
    const res = await pinnedFetch(
      new URL(`http://nowhere.invalid:${port}/am/stock/list`),
      { address: '127.0.0.1', family: 4 },
      { method: 'GET', headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5_000) },
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { list: unknown[] } }).data.list).toHaveLength(2);
    expect(hosts).toEqual([`nowhere.invalid:${port}`]);
  });
});
