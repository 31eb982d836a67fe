import { syncSybOrders } from '../../admin/syb/sync';
import { upload } from '../catalog/helpers';
import { buildWorkbook } from '../catalog/workbook';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { shipment, startSim, taipeiAt } from './helpers';

const G = '22300000001';

/**
 * Orders synced before their product was imported: a later sync matches them as a new line
 * would be matched, and never overwrites what an operator set or cleared by hand.
 */
describe('SYB sync: lines left unmatched get their automatic match on a later sync', () => {
  let admin: TestAdmin;
  let sim: Awaited<ReturnType<typeof startSim>>;
  let op: OperatorClient;
  const id = (n: number) => `SH-T-0001-L${n}`;

  const sku = async (n: number): Promise<{ shopee_sku_id: string | null; match_state: string }> => {
    const res = await op.get('/api/syb/orders?limit=200');
    const found = (
      res.body as { items: Array<{ syb_id: string; shopee_sku_id: string | null; match_state: string }> }
    ).items.find((l) => l.syb_id === id(n));
    if (!found) throw new Error(`no line ${id(n)}`);
    return { shopee_sku_id: found.shopee_sku_id, match_state: found.match_state };
  };

  beforeAll(async () => {
    sim = await startSim([
      shipment(1, taipeiAt(0, '08:00:00'), [
        { productId: G, spec: '黑色,M' }, // L1 matched by the later sync
        { productId: G, spec: '黑色,M' }, // L2 set by hand to another SKU before the later sync
        { productId: G, spec: '黑色,M' }, // L3 cleared by hand before the later sync
        { productId: G, spec: '灰色,S' }, // L4 no such spec: stays unmatched
      ]),
    ]);
    const creds = await sim.control.credentials();
    admin = await startTestAdmin({
      runWorker: false,
      syb: { url: sim.url, username: creds.username, password: creds.password },
    });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
    await sim?.close();
  });

  it('matches on the next sync what the first sync could not, leaving the operator’s choices alone', async () => {
    await syncSybOrders(admin.syb);
    for (const n of [1, 2, 3, 4]) expect(await sku(n)).toEqual({ shopee_sku_id: null, match_state: 'sku_unknown' });
    // The operator says "no SKU" for L3 before anything is imported.
    expect((await op.put(`/api/syb/orders/${id(3)}/sku`, { shopee_sku_id: null })).status).toBe(200);

    const res = await upload(
      op,
      await buildWorkbook(
        ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
        [
          { 商品ID: G, 商品名稱: '外套', 商品規格ID: '-' },
          { 商品ID: G, 商品名稱: '外套', 商品規格ID: '8101', 商品規格: '黑色,M' },
          { 商品ID: G, 商品名稱: '外套', 商品規格ID: '8102', 商品規格: '白色,L' },
        ],
      ),
    );
    expect(res.status).toBe(200);
    // 白色,L for a 黑色,M line: refused unless the operator confirms the mismatch.
    expect((await op.put(`/api/syb/orders/${id(2)}/sku`, { shopee_sku_id: '8102' })).status).toBe(409);
    expect(
      (await op.put(`/api/syb/orders/${id(2)}/sku`, { shopee_sku_id: '8102', confirm_mismatch: true })).status,
    ).toBe(200);
    // Importing alone matches nothing: matching happens on sync.
    expect(await sku(1)).toEqual({ shopee_sku_id: null, match_state: 'unmatched' });

    await syncSybOrders(admin.syb);
    expect(await sku(1)).toEqual({ shopee_sku_id: '8101', match_state: 'matched' });
    expect(await sku(2)).toEqual({ shopee_sku_id: '8102', match_state: 'matched' });
    expect(await sku(3)).toEqual({ shopee_sku_id: null, match_state: 'unmatched' });
    expect(await sku(4)).toEqual({ shopee_sku_id: null, match_state: 'unmatched' });

    // An operator who clears the automatic match is not overruled by the sync after that.
    expect((await op.put(`/api/syb/orders/${id(1)}/sku`, { shopee_sku_id: null })).status).toBe(200);
    await syncSybOrders(admin.syb);
    expect(await sku(1)).toEqual({ shopee_sku_id: null, match_state: 'unmatched' });
  });
});
