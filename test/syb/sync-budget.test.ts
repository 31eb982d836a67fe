import { syncSybOrders, sybSyncStatus } from '../../admin/syb/sync';
import { setState } from '../../admin/syb/sync-state';
import { SETTINGS } from '../../domain/settings';
import { loginOperator, startTestAdmin, type TestAdmin } from '../harness';
import { oneLineDetail, startSim, startWireSyb, type WireSyb } from './helpers';

/**
 * A hostile 顺运宝 that floods (docs/syb-protocol.md "Limits"): a list that never ends, every
 * page new shipments of many lines, or answers padded to megabytes. Without a budget one sync
 * took 597,940 rows and 2.57 GB into admin.db in 96 s; now it stops at the operator's budget of
 * lines, bytes or pages (设置, `syb.sync_max_*`) with SYB_SYNC_BUDGET, keeps what it stored, and
 * leaves its cursor where it was, so nothing it did not read is skipped.
 */
describe('SYB sync budgets', () => {
  let admin: TestAdmin | undefined;
  afterEach(async () => {
    await admin?.close();
    admin = undefined;
  });

  /** A cursor from an earlier sync, and a shipment an earlier sync could not read. */
  const earlier = { last_synced_at: '2026-12-01T00:00:00Z', retry_json: JSON.stringify([{ id: 'OLD-1', error: 'x' }]) };
  const rows = async () =>
    Number(
      (
        await admin!.db
          .selectFrom('syb_orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a flood of pages stops at 20,000 lines (the default): what was stored is kept, the cursor stays', async () => {
    const sim = await startSim([]);
    try {
      await sim.control.faults({ flood_lines: 100, page_size: 50 });
      const creds = await sim.control.credentials();
      admin = await startTestAdmin({ runWorker: false, syb: { url: sim.url, ...creds } });
      await setState(admin.db, earlier);
      const started = Date.now();
      const counts = await syncSybOrders(admin.syb);
      const ms = Date.now() - started;
      const budget = SETTINGS['syb.sync_max_lines'].default;
      expect(budget).toBe(20_000);
      expect(counts.lines).toBe(budget);
      expect(await rows()).toBe(budget);
      // 50 shipments of 100 lines a page: four pages hold the budget; the fifth page's first
      // shipment is where it stops, unread
      const requests = await sim.control.requests();
      expect(requests.filter((r) => r.path === '/am/stock/list')).toHaveLength(5);
      expect(requests.filter((r) => r.path === '/am/stock/detail/listByStock')).toHaveLength(200);
      const status = await sybSyncStatus(admin.db);
      expect(status.last_error).toMatch(/^SYB_SYNC_BUDGET: this sync stored 20000 lines, the limit per sync/);
      expect(status.last_synced_at).toBe(earlier.last_synced_at);
      expect(status.running).toBe(false);
      // the earlier sync's failed shipment was not reached: it is still named for the next one
      const state = await admin.db.selectFrom('syb_sync_state').select('retry_json').executeTakeFirstOrThrow();
      expect(JSON.parse(state.retry_json)).toEqual([{ id: 'OLD-1', error: 'x' }]);
      console.log(`20,000-line budget: the flood stopped after ${ms} ms`);
    } finally {
      await sim.close();
    }
  }, 180_000);

  it('a budget set on 设置 applies to the next sync without a restart', async () => {
    const sim = await startSim([]);
    try {
      await sim.control.faults({ flood_lines: 300, page_size: 10 });
      const creds = await sim.control.credentials();
      admin = await startTestAdmin({ runWorker: false, syb: { url: sim.url, ...creds } });
      const op = await loginOperator(admin);
      const set = await op.put('/api/settings', { 'syb.sync_max_lines': 1_000 });
      expect(set.status).toBe(200);
      // below one shipment's worth of lines is refused, in Chinese
      const refused = await op.put('/api/settings', { 'syb.sync_max_lines': 999 });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('顺运宝每次同步最多明细行数须在 1000–1000000 行 之间');
      const counts = await syncSybOrders(admin.syb);
      // three whole shipments of 300 and 100 lines of the fourth: the fourth is read again next time
      expect(counts.lines).toBe(1_000);
      expect(await rows()).toBe(1_000);
      const status = await sybSyncStatus(admin.db);
      expect(status.last_error).toMatch(/^SYB_SYNC_BUDGET: this sync stored 1000 lines, .*FLOOD-1-4 not all stored/);
      expect(status.last_synced_at).toBeNull();
    } finally {
      await sim.close();
    }
  }, 120_000);

  describe('bytes', () => {
    let syb: WireSyb | undefined;
    afterEach(async () => {
      await syb?.close();
      syb = undefined;
    });

    it('answers padded to 5 MB each stop at the byte budget (32 MB here), never reading past it', async () => {
      const detailCalls: string[] = [];
      let served = 0;
      syb = await startWireSyb({
        list: (url) => ({
          pages: 1_000,
          list: Array.from({ length: 10 }, (_, i) => ({ id: `PAD-${url.searchParams.get('pageNum')}-${i}` })),
        }),
        detail: (id) => {
          detailCalls.push(id);
          // an unknown field: never stored, but every byte of it is read
          const padded = { ...oneLineDetail(id, '55500000001'), padding: 'x'.repeat(5 * 1024 * 1024) };
          served += JSON.stringify(padded).length;
          return padded;
        },
      });
      admin = await startTestAdmin({
        runWorker: false,
        syb: { url: `http://127.0.0.1:${syb.port}`, username: 'u', password: 'p' },
      });
      await admin.db
        .insertInto('app_settings')
        .values({ setting_key: 'syb.sync_max_mb', value_json: '32', updated_at: '2026-12-01T00:00:00Z' })
        .execute();
      await setState(admin.db, earlier);
      const counts = await syncSybOrders(admin.syb);
      // six answers fit in 32 MB; the seventh is cut where the budget ends, and nothing is asked after it
      expect(detailCalls).toHaveLength(7);
      expect(counts.lines).toBe(6);
      expect(await rows()).toBe(6);
      expect(served).toBeGreaterThan(35 * 1024 * 1024);
      const status = await sybSyncStatus(admin.db);
      expect(status.last_error).toMatch(
        /^SYB_SYNC_BUDGET: the answers of this sync passed 32 MB at \/am\/stock\/detail/,
      );
      expect(status.last_synced_at).toBe(earlier.last_synced_at);
    }, 120_000);
  });
});
