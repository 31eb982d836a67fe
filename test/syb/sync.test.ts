import fs from 'node:fs';
import path from 'node:path';
import { syncSybOrders, sybSyncStatus } from '../../admin/syb/sync';
import { startTestAdmin, type TestAdmin } from '../harness';
import { RECIPIENT, shipment, startSim, taipeiAt } from './helpers';

/**
 * The sync against the simulator over HTTP and a real SQLite file (the service the Temporal
 * activity calls; the workflow and Schedule are covered in schedule.test.ts).
 */
describe('SYB sync (docs/syb-protocol.md)', () => {
  let admin: TestAdmin;
  let sim: Awaited<ReturnType<typeof startSim>>;

  beforeAll(async () => {
    sim = await startSim();
    const creds = await sim.control.credentials();
    admin = await startTestAdmin({
      runWorker: false,
      syb: { url: sim.url, username: creds.username, password: creds.password },
    });
  });
  afterAll(async () => {
    await admin?.close();
    await sim?.close();
  });

  const rows = () => admin.db.selectFrom('syb_orders').selectAll().orderBy('syb_id').execute();
  const sync = () => syncSybOrders(admin.syb);
  const state = () => sybSyncStatus(admin.db);
  /** One sample of the admin's /metrics, scraped over HTTP as Prometheus would. */
  const metric = async (line: string): Promise<number> => {
    const text = await (await fetch(`${admin.url}/metrics`)).text();
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    return found ? Number(found.slice(line.length + 1)) : 0;
  };

  it('first sync: one row per detail line, outer code as syb_order_no, price from the detail rounded half-up', async () => {
    await sim.control.putShipments([
      shipment(1, taipeiAt(-2, '10:00:00'), [
        { productId: '11100000001', spec: '黑色,M', quantity: 2, price: '1.005' },
        { productId: '11100000002', spec: null, price: '2.675' },
      ]),
      shipment(2, taipeiAt(-1, '23:59:59'), [{ productId: '11100000001', spec: '白色,L', price: '1234.565' }]),
    ]);
    const counts = await sync();
    expect(counts).toMatchObject({ pages: 1, lines: 3, new_lines: 3 });
    const all = await rows();
    expect(
      all.map((r) => [r.syb_id, r.syb_order_no, r.shopee_goods_id, r.product_spec, r.quantity, r.price_twd_cent]),
    ).toEqual([
      ['SH-T-0001-L1', 'TW-T-0001', '11100000001', '黑色,M', 2, 101],
      ['SH-T-0001-L2', 'TW-T-0001', '11100000002', null, 1, 268],
      ['SH-T-0002-L1', 'TW-T-0002', '11100000001', '白色,L', 1, 123457],
    ]);
    const s = await state();
    expect(s).toMatchObject({ running: false, last_error: null, progress: { pages: 1, lines: 3 } });
    expect(s.last_synced_at).not.toBeNull();
  });

  it('incremental: asks from the Taipei day of last_synced_at, and picks up a shipment created later that day', async () => {
    const before = (await state()).last_synced_at!;
    await sim.control.clearRequests();
    await sim.control.addShipments([
      shipment(3, taipeiAt(0, '23:59:58'), [{ productId: '11100000003', spec: '紅,S' }]),
    ]);
    const counts = await sync();
    expect(counts.new_lines).toBe(1);
    const lists = (await sim.control.requests()).filter((r) => r.path === '/am/stock/list');
    const lastDay = new Date(Date.parse(before) + 8 * 3600_000).toISOString().slice(0, 10);
    expect(lists.length).toBeGreaterThan(0);
    for (const r of lists) expect(r.query.createdStart).toBe(lastDay);
    expect((await rows()).map((r) => r.syb_id)).toContain('SH-T-0003-L1');
  });

  it('re-sync is idempotent: same rows, untouched', async () => {
    const before = await rows();
    const counts = await sync();
    expect(counts.new_lines).toBe(0);
    expect(await rows()).toEqual(before);
  });

  it('a failed page N leaves last_synced_at alone; the next run fills the gap', async () => {
    await sim.control.putShipments(
      Array.from({ length: 7 }, (_, i) =>
        shipment(10 + i, taipeiAt(0, `0${i}:00:00`), [{ productId: '11100000009', spec: `色${i},M` }]),
      ),
    );
    await sim.control.faults({ page_size: 3, fail_page: 2, fail_status: 502 });
    const before = await state();
    const failedRuns = await metric('cmautobuy_syb_sync_runs_total{outcome="failed"}');
    const okRuns = await metric('cmautobuy_syb_sync_runs_total{outcome="ok"}');
    const linesRead = await metric('cmautobuy_syb_sync_lines_total');
    await expect(sync()).rejects.toThrow(/HTTP 502/);
    expect(await metric('cmautobuy_syb_sync_runs_total{outcome="failed"}')).toBe(failedRuns + 1);
    const failed = await state();
    expect(failed.last_synced_at).toBe(before.last_synced_at);
    expect(failed.running).toBe(false);
    expect(failed.last_error).toMatch(/SYB_UNAVAILABLE/);
    expect(failed.progress.pages).toBe(1);
    expect((await rows()).filter((r) => r.shopee_goods_id === '11100000009')).toHaveLength(3);

    await sim.control.faults({ fail_page: null });
    const counts = await sync();
    expect(counts).toMatchObject({ pages: 3, new_lines: 4 });
    // an alert on sync failures sees one failure, then one success with every line read
    expect(await metric('cmautobuy_syb_sync_runs_total{outcome="ok"}')).toBe(okRuns + 1);
    expect(await metric('cmautobuy_syb_sync_lines_total')).toBe(linesRead + counts.lines);
    expect((await rows()).filter((r) => r.shopee_goods_id === '11100000009')).toHaveLength(7);
    const ok = await state();
    expect(ok.last_error).toBeNull();
    expect(ok.last_synced_at! >= before.last_synced_at!).toBe(true);
    await sim.control.clearFaults();
  });

  it('a session that expires mid-sync: one re-login, the sync completes; the JWT is never sent', async () => {
    await sim.control.putShipments(
      Array.from({ length: 4 }, (_, i) =>
        shipment(30 + i, taipeiAt(0, `1${i}:00:00`), [{ productId: '11100000030', spec: `款${i},L` }]),
      ),
    );
    await sim.control.faults({ page_size: 1, session_ttl_s: 1, latency_ms: 400 });
    await sim.control.clearRequests();
    const counts = await sync();
    expect(counts).toMatchObject({ pages: 4, lines: 4 });
    await sim.control.clearFaults();
    const log = await sim.control.requests();
    // The cached session claims 24 h (the JWT's exp): only the service's expiry answer explains a second login.
    expect(log.filter((r) => r.path === '/api/auth/login').length).toBeGreaterThanOrEqual(2);
    expect(log.every((r) => r.authorization === false)).toBe(true);
    expect(log.filter((r) => r.path !== '/api/auth/login').every((r) => r.cookie)).toBe(true);
  });

  it('no recipient name, phone or address anywhere in admin.db or its WAL', async () => {
    const dir = admin.dataDir;
    const files = fs.readdirSync(dir).filter((f) => f.startsWith('admin.db'));
    expect(files).toContain('admin.db');
    const hay = Buffer.concat(files.map((f) => fs.readFileSync(path.join(dir, f))));
    for (const value of Object.values(RECIPIENT)) {
      expect(hay.includes(Buffer.from(value, 'utf8'))).toBe(false);
    }
    // and the line still carries the shipment's other fields
    const one = await admin.db
      .selectFrom('syb_orders')
      .select('syb_data')
      .where('syb_id', '=', 'SH-T-0001-L1')
      .executeTakeFirstOrThrow();
    const data = JSON.parse(one.syb_data) as { shipment: Record<string, unknown> };
    expect(data.shipment).toMatchObject({ code: 'TW-T-0001', orderCode: 'OC-1' });
    expect(Object.keys(data.shipment)).not.toContain('receiver');
  });

  it('a wrong password is reported, not retried, and changes nothing', async () => {
    const before = await state();
    await admin.syb.update({ password: 'not-the-password' }, async () => {});
    await expect(sync()).rejects.toMatchObject({ code: 'SYB_LOGIN_REFUSED' });
    const after = await state();
    expect(after.last_synced_at).toBe(before.last_synced_at);
    expect(after.last_error).toMatch(/SYB_LOGIN_REFUSED/);
    await admin.syb.update({ password: (await sim.control.credentials()).password }, async () => {});
  });
});
