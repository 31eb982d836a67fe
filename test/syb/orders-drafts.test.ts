import { syncSybOrders } from '../../admin/syb/sync';
import { skusJson, upload } from '../catalog/helpers';
import { buildWorkbook } from '../catalog/workbook';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { shipment, startSim, taipeiAt } from './helpers';

const HEADER = ['商品ID', '商品名稱', '商品規格ID', '商品規格'];
const G1 = '22200000001';
const G2 = '22200000002';
const G3 = '22200000003'; // not in the local catalog
const G4 = '22200000004'; // no PDD link

interface Line {
  syb_id: string;
  syb_order_no: string;
  shopee_sku_id: string | null;
  match_state: string;
  quantity: number;
  task_id: string | null;
  task_status: string | null;
}

describe('SYB order lines: matching, the orders API and purchase drafts', () => {
  let admin: TestAdmin;
  let sim: Awaited<ReturnType<typeof startSim>>;
  let op: OperatorClient;

  const day = taipeiAt(0, '08:00:00');
  const lines = [
    { productId: G1, spec: '黑色,M', quantity: 2 }, // L1 auto 5001 → draft
    { productId: G1, spec: '白色,L' }, // L2 auto 5002, not mapped
    { productId: G1, spec: '灰色,S' }, // L3 auto 5003, price unknown
    { productId: G1, spec: '黑色,L' }, // L4 auto 5004, sold out
    { productId: G1, spec: '黑色,M', quantity: 11 }, // L5 over the max quantity
    { productId: G1, spec: '綠色,M' }, // L6 no such spec
    { productId: G2, spec: '紅,S' }, // L7 two SKUs with this spec
    { productId: G3, spec: '黑色,M' }, // L8 goods unknown locally
    { productId: G4, spec: '藍,M' }, // L9 no PDD link
    { productId: G1, spec: '黑色,M【建議40-50公斤】' }, // L10 spec differs (advice)
  ];
  const id = (n: number) => `SH-T-0001-L${n}`;

  const collected = (goodsId: string, skus: Parameters<typeof skusJson>[1]) =>
    admin.db
      .updateTable('pdd_products')
      .set({
        collect_status: 'collected',
        skus_json: JSON.stringify(skusJson(goodsId, skus)),
        collected_at: '2026-08-07T08:00:00Z',
      })
      .where('goods_id', '=', goodsId)
      .execute();
  const list = async (query = ''): Promise<Line[]> => {
    const res = await op.get(`/api/syb/orders?limit=200${query}`);
    expect(res.status).toBe(200);
    return (res.body as { items: Line[] }).items;
  };
  const line = async (n: number) => (await list()).find((l) => l.syb_id === id(n))!;
  const draft = async (ids: string[], mode?: string) => {
    const res = await op.post('/api/tasks/from-orders', { syb_ids: ids, ...(mode ? { execution_mode: mode } : {}) });
    expect(res.status).toBe(200);
    return (
      res.body as {
        results: Array<{ syb_id: string; task_id: string | null; error: { code: string; message: string } | null }>;
      }
    ).results;
  };

  beforeAll(async () => {
    sim = await startSim([shipment(1, day, lines)]);
    const creds = await sim.control.credentials();
    admin = await startTestAdmin({
      runWorker: false,
      syb: { url: sim.url, username: creds.username, password: creds.password },
    });
    op = await loginOperator(admin);
    const res = await upload(
      op,
      await buildWorkbook(HEADER, [
        { 商品ID: G1, 商品名稱: '外套', 商品規格ID: '-' },
        { 商品ID: G1, 商品名稱: '外套', 商品規格ID: '5001', 商品規格: '黑色,M' },
        { 商品ID: G1, 商品名稱: '外套', 商品規格ID: '5002', 商品規格: '白色,L' },
        { 商品ID: G1, 商品名稱: '外套', 商品規格ID: '5003', 商品規格: '灰色,S' },
        { 商品ID: G1, 商品名稱: '外套', 商品規格ID: '5004', 商品規格: '黑色,L' },
        { 商品ID: G2, 商品名稱: 'T恤', 商品規格ID: '-' },
        { 商品ID: G2, 商品名稱: 'T恤', 商品規格ID: '6001', 商品規格: '紅,S' },
        { 商品ID: G2, 商品名稱: 'T恤', 商品規格ID: '6002', 商品規格: '紅,S ' },
        { 商品ID: G4, 商品名稱: '帽子', 商品規格ID: '-' },
        { 商品ID: G4, 商品名稱: '帽子', 商品規格ID: '7001', 商品規格: '藍,M' },
      ]),
    );
    expect(res.status).toBe(200);
    expect(
      (
        await op.put(`/api/shopee/products/${G1}/pdd-link`, {
          url: 'https://mobile.yangkeduo.com/goods.html?goods_id=880001',
        })
      ).status,
    ).toBe(200);
    await collected('880001', [
      { color: '黑色', size: 'M', price_cent: 1288 },
      { color: '白色', size: 'L', price_cent: 1390 },
      { color: '灰色', size: 'S', price_cent: null },
      { color: '黑色', size: 'L', price_cent: 1500, available: false },
    ]);
    for (const [sku, color, size] of [
      ['5001', '黑色', 'M'],
      ['5003', '灰色', 'S'],
      ['5004', '黑色', 'L'],
    ] as const) {
      expect((await op.put(`/api/mappings/${sku}`, { pdd_options: { color, size } })).status).toBe(200);
    }
    await syncSybOrders(admin.syb);
  });
  afterAll(async () => {
    await admin?.close();
    await sim?.close();
  });

  it('auto-match only on an exact, unique spec of the same goods; the state is derived', async () => {
    const all = await list();
    const by = (n: number) => all.find((l) => l.syb_id === id(n))!;
    expect([1, 2, 3, 4, 5].map((n) => by(n).shopee_sku_id)).toEqual(['5001', '5002', '5003', '5004', '5001']);
    expect(by(6)).toMatchObject({ shopee_sku_id: null, match_state: 'unmatched' });
    expect(by(7)).toMatchObject({ shopee_sku_id: null, match_state: 'unmatched' }); // two SKUs share the spec
    expect(by(8)).toMatchObject({ shopee_sku_id: null, match_state: 'sku_unknown' });
    expect(by(10)).toMatchObject({ shopee_sku_id: null, match_state: 'unmatched' }); // advice differs
    // 可采购 only when the SKU is mapped to an available, priced PDD combination; a SKU alone is 已匹配.
    expect(by(1)).toMatchObject({
      syb_order_no: 'TW-T-0001',
      match_state: 'ready',
      quantity: 2,
      shopee_sku_spec: '黑色,M',
    });
    expect(by(1)).not.toHaveProperty('order_no'); // the 顺运宝 number has one name
    expect(by(2)).toMatchObject({ shopee_sku_id: '5002', match_state: 'matched', shopee_sku_spec: '白色,L' }); // not mapped
    expect(by(3)).toMatchObject({ match_state: 'matched' }); // price unknown
    expect(by(4)).toMatchObject({ match_state: 'matched' }); // sold out
    expect((await list('&match=ready')).map((l) => l.syb_id).sort()).toEqual([id(1), id(5)].sort());
    expect((await list('&match=matched')).map((l) => l.syb_id).sort()).toEqual([id(2), id(3), id(4), id(9)].sort());
    // the same with pages of one line: the filter keeps paging right
    const readyPaged: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await op.get(`/api/syb/orders?match=ready&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      const body = res.body as { items: Line[]; next_cursor: string | null };
      readyPaged.push(...body.items.map((i) => i.syb_id));
      cursor = body.next_cursor;
    } while (cursor);
    expect(readyPaged.sort()).toEqual([id(1), id(5)].sort());
    expect((await list('&match=sku_unknown')).map((l) => l.syb_id)).toEqual([id(8)]);
    expect((await list('&match=unmatched')).map((l) => l.syb_id).sort()).toEqual([id(10), id(6), id(7)].sort());
  });

  it('keyset pages cover every line once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await op.get(`/api/syb/orders?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      const body = res.body as { items: Line[]; next_cursor: string | null };
      seen.push(...body.items.map((i) => i.syb_id));
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual(lines.map((_, i) => id(i + 1)).sort());
    expect((await op.get('/api/syb/orders?cursor=garbage')).status).toBe(400);
    expect((await op.get('/api/syb/orders?match=nope')).status).toBe(400);
  });

  it('set / clear the Shopee SKU by hand: only a local SKU of the same goods, audited', async () => {
    const bad = await op.put(`/api/syb/orders/${id(6)}/sku`, { shopee_sku_id: '6001' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'SHOPEE_SKU_OTHER_GOODS' } });
    expect((await op.put(`/api/syb/orders/${id(6)}/sku`, { shopee_sku_id: '9999' })).body).toMatchObject({
      error: { code: 'SHOPEE_SKU_NOT_FOUND' },
    });
    expect((await op.put(`/api/syb/orders/nope/sku`, { shopee_sku_id: null })).status).toBe(404);
    expect((await line(6)).shopee_sku_id).toBeNull();
    // 白色,L for a 綠色,M line: 409 SPEC_MISMATCH, nothing written, until the operator confirms.
    const mismatch = await op.put(`/api/syb/orders/${id(6)}/sku`, { shopee_sku_id: '5002' });
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({ error: { code: 'SPEC_MISMATCH' } });
    expect((await line(6)).shopee_sku_id).toBeNull();
    const ok = await op.put(`/api/syb/orders/${id(6)}/sku`, { shopee_sku_id: '5002', confirm_mismatch: true });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      syb_id: id(6),
      shopee_sku_id: '5002',
      match_state: 'matched',
      spec_mismatch: true,
    });
    expect(
      await admin.db.selectFrom('audit_log').select('target_id').where('action', '=', 'syb_order.sku.set').execute(),
    ).toEqual([{ target_id: id(6) }]);
  });

  it('a manual shopee_sku_id survives a re-sync that changes the line', async () => {
    const changed = lines.map((l, i) => (i === 5 ? { ...l, quantity: 3, price: '88.5', title: '改過的標題' } : l));
    await sim.control.putShipments([shipment(1, day, changed)]);
    await syncSybOrders(admin.syb);
    const row = await admin.db
      .selectFrom('syb_orders')
      .selectAll()
      .where('syb_id', '=', id(6))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ shopee_sku_id: '5002', quantity: 3, price_twd_cent: 8850, title: '改過的標題' });
  });

  it('every refusal code, nothing written for a refused line; a batch makes what it can', async () => {
    const tasksBefore = await admin.db.selectFrom('tasks').select('task_id').execute();
    const results = await draft([id(1), id(2), id(3), id(4), id(5), id(7), id(8), id(9), 'no-such-line']);
    const codes = Object.fromEntries(results.map((r) => [r.syb_id, r.error?.code ?? 'OK']));
    expect(codes).toEqual({
      [id(1)]: 'OK',
      [id(2)]: 'NO_MAPPING',
      [id(3)]: 'PRICE_UNKNOWN',
      [id(4)]: 'OPTION_UNAVAILABLE',
      [id(5)]: 'OVER_MAX_QUANTITY',
      [id(7)]: 'SKU_UNKNOWN',
      [id(8)]: 'SKU_UNKNOWN',
      [id(9)]: 'NO_PDD_LINK',
      'no-such-line': 'SYB_ORDER_NOT_FOUND',
    });
    for (const r of results.filter((x) => x.error)) expect(r.error!.message).toMatch(/[\u4e00-\u9fff]/u);
    // each refusal links to the page that fixes it, and one with numbers names them
    const links = Object.fromEntries(
      results.map((r) => [r.syb_id, (r.error as { link?: { href: string } } | null)?.link?.href]),
    );
    expect(links).toMatchObject({
      [id(2)]: `/products/${G1}`, // mapping board
      [id(3)]: '/pdd/880001', // re-collect the price
      [id(4)]: '/pdd/880001',
      [id(5)]: '/settings',
      [id(7)]: `/products/${G2}`,
      [id(8)]: '/products', // never imported: the import
      [id(9)]: `/products/${G4}`,
    });
    expect(results.find((r) => r.syb_id === id(5))!.error!.message).toContain('数量 11 超过上限 10');
    const tasksAfter = await admin.db.selectFrom('tasks').select('task_id').execute();
    expect(tasksAfter.length).toBe(tasksBefore.length + 1);

    const taskId = results[0]!.task_id!;
    const task = await op.get(`/api/tasks/${taskId}`);
    expect(task.body).toMatchObject({
      status: 'DRAFT',
      execution_mode: 'dry_run',
      syb_id: id(1),
      syb_order_no: 'TW-T-0001',
      shopee_goods_id: G1,
      shopee_sku_id: '5001',
      pdd_goods_id: '880001',
      pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
      quantity: 2,
      max_total_price_cent: 1288 * 2 + 500,
      pdd_order_no: null,
    });
    expect(await line(1)).toMatchObject({ task_id: taskId, task_status: 'DRAFT' });
    expect((await list('&has_task=true')).map((l) => l.syb_id)).toEqual([id(1)]);

    const again = await draft([id(1)], 'live');
    expect(again).toEqual([
      {
        syb_id: id(1),
        task_id: null,
        error: {
          code: 'ALREADY_DRAFTED',
          message: expect.any(String),
          link: { href: `/tasks/${taskId}`, label: expect.any(String) },
        },
      },
    ]);
    expect((await admin.db.selectFrom('tasks').select('task_id').execute()).length).toBe(tasksAfter.length);
  });

  it('bad input: 400, nothing written', async () => {
    for (const body of [{}, { syb_ids: [] }, { syb_ids: [id(10)], execution_mode: 'pay' }, { syb_ids: 'x' }]) {
      const res = await op.post('/api/tasks/from-orders', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });

  it('after switching the product to another PDD goods, drafts use only the new goods and its mappings', async () => {
    // 黑色,M for 黑色,M【建議40-50公斤】: the advice differs, so only with the operator's confirmation.
    expect((await op.put(`/api/syb/orders/${id(10)}/sku`, { shopee_sku_id: '5001' })).status).toBe(409);
    const confirmed = await op.put(`/api/syb/orders/${id(10)}/sku`, { shopee_sku_id: '5001', confirm_mismatch: true });
    expect(confirmed.body).toMatchObject({ spec_mismatch: true });
    expect(
      (
        await op.put(`/api/shopee/products/${G1}/pdd-link`, {
          url: 'https://mobile.yangkeduo.com/goods.html?goods_id=880002',
        })
      ).status,
    ).toBe(200);
    await collected('880002', [
      { color: '黑色', size: 'M', price_cent: 2000 },
      { color: '黑', size: 'M码', price_cent: 1700 },
    ]);
    // The old goods' mapping of 5001 (黑色/M under 880001) must not be reused, even though 880002 has 黑色/M.
    expect((await draft([id(10)]))[0]?.error?.code).toBe('NO_MAPPING');
    expect((await op.put('/api/mappings/5001', { pdd_options: { color: '黑', size: 'M码' } })).status).toBe(200);
    const [made] = await draft([id(10)], 'live');
    expect(made?.error).toBeNull();
    const task = await op.get(`/api/tasks/${made!.task_id}`);
    expect(task.body).toMatchObject({
      pdd_goods_id: '880002',
      pdd_goods_url: expect.stringContaining('goods_id=880002'),
      pdd_options: { 颜色分类: '黑', 尺码: 'M码' },
      max_total_price_cent: 1700 + 500,
      execution_mode: 'live',
    });
  });
});
