import { syncSybOrders, sybSyncStatus } from '../../admin/syb/sync';
import { SETTINGS } from '../../domain/settings';
import { startTestAdmin, type TestAdmin } from '../harness';
import { oneLineDetail, startWireSyb, type WireSyb } from './helpers';

/**
 * A 顺运宝 that lies about its page count (docs/syb-protocol.md "The sync" 5): `pages: 1000000`.
 * A tiny loopback server speaking the wire protocol, since the simulator computes `pages`
 * honestly. Repeated pages end the walk at once; pages that keep listing new shipments end at
 * the page budget (设置 `syb.sync_max_pages`), and then the cursor stays (not all was read).
 */
describe('SYB list that claims a million pages', () => {
  let admin: TestAdmin | undefined;
  let syb: WireSyb | undefined;
  afterEach(async () => {
    await admin?.close();
    await syb?.close();
  });

  const start = async (mode: 'repeat' | 'endless') => {
    const calls = { list: 0, detail: 0 };
    syb = await startWireSyb({
      list: (url) => {
        calls.list += 1;
        const id = mode === 'repeat' ? 'P-1' : `P-${Number(url.searchParams.get('pageNum'))}`;
        return { pages: 1_000_000, list: [{ id }] };
      },
      detail: (id) => {
        calls.detail += 1;
        return oneLineDetail(id, '66600000001');
      },
    });
    admin = await startTestAdmin({
      runWorker: false,
      syb: { url: `http://127.0.0.1:${syb.port}`, username: 'u', password: 'p' },
    });
    return calls;
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

  it('pages that never end stop at the page budget; the cursor stays and last_error says why', async () => {
    const calls = await start('endless');
    const pages = SETTINGS['syb.sync_max_pages'].default;
    const counts = await syncSybOrders(admin!.syb);
    expect(calls.list).toBe(pages);
    expect(counts.lines).toBe(pages);
    const status = await sybSyncStatus(admin!.db);
    expect(status.last_synced_at).toBeNull();
    expect(status.last_error).toMatch(/^SYB_SYNC_BUDGET: SYB lists more than 200 pages, the limit per sync/);
  }, 120_000);
});
