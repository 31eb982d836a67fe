import { optionKey } from '../../domain/option-key';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { skusJson, upload } from './helpers';
import { buildWorkbook } from './workbook';

const HEADER = ['商品ID', '商品名稱', '商品規格ID', '商品規格'];

describe('PDD links and SKU mappings (docs/architecture.md §5.2)', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    const res = await upload(
      op,
      await buildWorkbook(HEADER, [
        { 商品ID: '1001', 商品名稱: '外套', 商品規格ID: '-' },
        { 商品ID: '1001', 商品名稱: '外套', 商品規格ID: '2001', 商品規格: '黑色,M【建議40-50公斤】' },
        { 商品ID: '1001', 商品名稱: '外套', 商品規格ID: '2002', 商品規格: '白色,L' },
        { 商品ID: '1002', 商品名稱: '褲子', 商品規格ID: '-' },
        { 商品ID: '1003', 商品名稱: '帽子', 商品規格ID: '-' },
      ]),
    );
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await admin?.close();
  });

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

  it('every pasted form of one goods becomes one pdd_products row, deduped by goods_id', async () => {
    const forms = [
      'https://mobile.yangkeduo.com/goods.html?goods_id=300100',
      'https://mobile.yangkeduo.com/goods2.html?goods_id=300100&_wv=41729&share_uid=8',
      'pinduoduo://com.xunmeng.pinduoduo/goods.html?goods_id=300100',
      '【拼多多】好物 https://mobile.yangkeduo.com/goods1.html?ps=x&goods_id=300100 复制打开',
    ];
    for (const url of forms) {
      const res = await op.put('/api/shopee/products/1002/pdd-link', { url });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ pdd_goods_id: '300100' });
    }
    const rows = await admin.db.selectFrom('pdd_products').selectAll().where('goods_id', '=', '300100').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.url).toBe(forms[0]);
    const product = await op.get('/api/shopee/products/1002');
    expect(product.body).toMatchObject({ pdd_goods_id: '300100', pdd_goods_url: forms[3], state: 'pending' });
    expect(
      await admin.db.selectFrom('audit_log').selectAll().where('action', '=', 'shopee.pdd_link.set').execute(),
    ).toHaveLength(4);
  });

  it('no goods_id → 400 asking for the full link, nothing written', async () => {
    const before = await admin.db.selectFrom('pdd_products').selectAll().execute();
    for (const url of ['https://mobile.yangkeduo.com/goods.html', '300100', '西装外套']) {
      const res = await op.put('/api/shopee/products/1003/pdd-link', { url });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'PDD_URL_NO_GOODS_ID' } });
      expect((res.body as { error: { message: string } }).error.message).toContain('full PDD goods link');
    }
    expect(await admin.db.selectFrom('pdd_products').selectAll().execute()).toEqual(before);
    expect(
      (
        await admin.db
          .selectFrom('shopee_products')
          .select('pdd_goods_id')
          .where('goods_id', '=', '1003')
          .executeTakeFirstOrThrow()
      ).pdd_goods_id,
    ).toBeNull();
    expect((await op.put('/api/shopee/products/9999/pdd-link', { url: 'goods.html?goods_id=123456' })).status).toBe(
      404,
    );
  });

  it('soft delete hides the goods; pasting it again revives it pending with old data cleared', async () => {
    await op.put('/api/shopee/products/1003/pdd-link', {
      url: 'https://mobile.yangkeduo.com/goods.html?goods_id=300300',
    });
    await collected('300300', [{ color: '红', size: 'S', price_cent: 990 }]);
    const del = await op.del('/api/pdd/products/300300');
    expect(del.status).toBe(200);
    expect((await op.get('/api/pdd/products/300300')).status).toBe(404);
    const list = (await op.get('/api/pdd/products?limit=200')).body as { items: Array<{ goods_id: string }> };
    expect(list.items.map((i) => i.goods_id)).not.toContain('300300');
    expect((await op.get('/api/shopee/products/1003')).body).toMatchObject({ state: 'unlinked', pdd_goods_id: null });
    const row = await admin.db
      .selectFrom('pdd_products')
      .selectAll()
      .where('goods_id', '=', '300300')
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();

    const again = await op.put('/api/shopee/products/1003/pdd-link', {
      url: 'https://mobile.yangkeduo.com/goods2.html?goods_id=300300&x=1',
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ pdd_goods_id: '300300', revived: true });
    const revived = await admin.db
      .selectFrom('pdd_products')
      .selectAll()
      .where('goods_id', '=', '300300')
      .executeTakeFirstOrThrow();
    expect(revived).toMatchObject({
      id: row.id,
      deleted_at: null,
      collect_status: 'pending',
      skus_json: null,
      title: null,
      collected_at: null,
    });
    expect((await op.get('/api/pdd/products/300300')).body).toMatchObject({
      goods_id: '300300',
      collect_status: 'pending',
      skus_json: null,
    });
  });

  it('maps a Shopee SKU to a PDD combination; the key is optionKey() whatever the key order', async () => {
    await op.put('/api/shopee/products/1001/pdd-link', {
      url: 'https://mobile.yangkeduo.com/goods.html?goods_id=400001',
    });
    await collected('400001', [
      { color: '黑色', size: 'M', price_cent: 1256 },
      { color: '黑色', size: 'L', price_cent: 1256 },
      { color: '白色', size: 'L', price_cent: null, available: false },
    ]);
    const res = await op.put('/api/mappings/2001', { pdd_options: { size: 'M', color: '黑色' } });
    expect(res.status).toBe(200);
    const row = await admin.db
      .selectFrom('sku_mappings')
      .selectAll()
      .where('shopee_sku_id', '=', '2001')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      pdd_goods_id: '400001',
      goods_id: '1001',
      pdd_option_key: optionKey({ color: '黑色', size: 'M' }),
      mapped_by: 'admin',
    });
    expect(JSON.parse(row.pdd_options)).toEqual({ color: '黑色', size: 'M' });

    const unknown = await op.put('/api/mappings/2002', { pdd_options: { color: '黑', size: 'M' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { code: 'PDD_OPTION_UNKNOWN' } });
    const remap = await op.put('/api/mappings/2001', { pdd_options: { color: '黑色', size: 'M' } });
    expect(remap.status).toBe(200);

    const board = (await op.get('/api/mappings?goods_id=1001')).body as {
      pdd_skus: Array<{ option_key: string; price_cent: number | null; available: boolean; price_measured: boolean }>;
      shopee_skus: Array<{ sku_id: string; mapping: { pdd_option_key: string } | null; suggestions: string[] }>;
    };
    expect(board.pdd_skus.map((p) => [p.price_cent, p.available, p.price_measured])).toEqual([
      [1256, true, true],
      [1256, true, false],
      [null, false, false],
    ]);
    expect(board.shopee_skus.find((s) => s.sku_id === '2001')?.mapping?.pdd_option_key).toBe(
      optionKey({ color: '黑色', size: 'M' }),
    );
    // exact text only: 白色/L is suggested for 白色,L; 黑色/M for 黑色,M
    expect(board.shopee_skus.find((s) => s.sku_id === '2002')?.suggestions).toEqual([
      optionKey({ color: '白色', size: 'L' }),
    ]);
    expect(board.shopee_skus.find((s) => s.sku_id === '2001')?.suggestions).toEqual([
      optionKey({ color: '黑色', size: 'M' }),
    ]);
  });

  it('switching PDD goods hides the old mappings without deleting them; switching back restores them', async () => {
    await op.put('/api/shopee/products/1001/pdd-link', {
      url: 'https://mobile.yangkeduo.com/goods.html?goods_id=400002',
    });
    // B happens to have the very same combination: the old mapping must not apply to it
    await collected('400002', [{ color: '黑色', size: 'M', price_cent: 999 }]);
    const onB = (await op.get('/api/shopee/products/1001')).body as {
      pdd_goods_id: string;
      skus: Array<{ sku_id: string; mapping: unknown }>;
    };
    expect(onB.pdd_goods_id).toBe('400002');
    expect(onB.skus.every((s) => s.mapping === null)).toBe(true);
    const boardB = (await op.get('/api/mappings?goods_id=1001')).body as { shopee_skus: Array<{ mapping: unknown }> };
    expect(boardB.shopee_skus.every((s) => s.mapping === null)).toBe(true);
    expect((await op.get('/api/shopee/products?q=1001')).body).toMatchObject({
      items: [{ goods_id: '1001', mapped_count: 0 }],
    });
    expect(
      await admin.db.selectFrom('sku_mappings').selectAll().where('pdd_goods_id', '=', '400001').execute(),
    ).toHaveLength(1);

    // mapping on B, then clearing it, leaves A's mapping alone
    expect((await op.put('/api/mappings/2001', { pdd_options: { color: '黑色', size: 'M' } })).status).toBe(200);
    expect((await op.del('/api/mappings/2001')).body).toEqual({ deleted: true });
    expect(await admin.db.selectFrom('sku_mappings').selectAll().where('shopee_sku_id', '=', '2001').execute()).toEqual(
      [expect.objectContaining({ pdd_goods_id: '400001' })],
    );

    await op.put('/api/shopee/products/1001/pdd-link', { url: 'goods.html?goods_id=400001' });
    const backOnA = (await op.get('/api/shopee/products/1001')).body as {
      skus: Array<{ sku_id: string; mapping: { pdd_goods_id: string; pdd_options: unknown } | null }>;
    };
    expect(backOnA.skus.find((s) => s.sku_id === '2001')?.mapping).toMatchObject({
      pdd_goods_id: '400001',
      pdd_options: { color: '黑色', size: 'M' },
    });
    expect((await op.get('/api/shopee/products?q=1001')).body).toMatchObject({
      items: [{ goods_id: '1001', mapped_count: 1, state: 'collected' }],
    });
  });

  it('filters products by the five states', async () => {
    const ids = async (state: string) =>
      ((await op.get(`/api/shopee/products?state=${state}`)).body as { items: Array<{ goods_id: string }> }).items.map(
        (i) => i.goods_id,
      );
    expect(await ids('unlinked')).toEqual([]);
    expect(await ids('pending')).toEqual(['1002', '1003']);
    expect(await ids('collected')).toEqual(['1001']);
    await admin.db
      .updateTable('pdd_products')
      .set({ collect_status: 'collecting', updated_at: '2000-01-01T00:00:00Z' })
      .where('goods_id', '=', '300100')
      .execute();
    expect(await ids('collecting')).toEqual([]);
    expect(await ids('failed')).toEqual(['1002']); // collecting for longer than CollectStaleAfter
    expect((await op.get('/api/pdd/products/300100')).body).toMatchObject({
      collect_status: 'collecting',
      collect_stale: true,
      state: 'failed',
    });
    // The PDD 商品 list applies the same stale rule as the 商品 list.
    const pddIds = async (state: string) =>
      ((await op.get(`/api/pdd/products?state=${state}`)).body as { items: Array<{ goods_id: string }> }).items.map(
        (i) => i.goods_id,
      );
    expect(await pddIds('failed')).toContain('300100');
    expect(await pddIds('collecting')).not.toContain('300100');
    await admin.db
      .updateTable('pdd_products')
      .set({ updated_at: new Date().toISOString().slice(0, 19) + 'Z' })
      .where('goods_id', '=', '300100')
      .execute();
    expect(await ids('collecting')).toEqual(['1002']);
    expect(await pddIds('collecting')).toContain('300100');
    expect((await op.get('/api/shopee/products?state=bogus')).status).toBe(400);
  });
});
