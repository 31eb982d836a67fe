import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { guideExampleTables, guideExampleWorkbooks } from './guide-example';
import { dumpDb, upload } from './helpers';
import { buildWorkbook } from './workbook';

/** What docs/operator-guide.md §1 says a workbook may be is what the import takes. */
describe('POST /api/shopee/imports takes what the operator guide says', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  const products = () =>
    admin.db
      .selectFrom('shopee_products')
      .select(['goods_id', 'title', 'search_text', 'main_sku_code', 'shopee_status'])
      .orderBy('goods_id')
      .execute();
  const skus = () =>
    admin.db
      .selectFrom('shopee_skus')
      .select(['sku_id', 'goods_id', 'color', 'size', 'advice', 'parse_ok'])
      .orderBy('sku_id')
      .execute();

  it('imports both example tables of the guide, with and without the product rows, to the same catalog', async () => {
    const tables = guideExampleTables();
    expect(tables).toHaveLength(2);
    // the first has exactly the required columns and no product row (商品規格ID `-`)
    expect(tables[0]?.header).toEqual(['商品ID', '商品名稱', '商品規格ID', '商品規格']);
    expect(tables[0]?.rows.some((r) => r.商品規格ID === '-')).toBe(false);
    expect(tables[1]?.rows.some((r) => r.商品規格ID === '-')).toBe(true);

    const catalogs: string[] = [];
    for (const file of await guideExampleWorkbooks()) {
      const res = await upload(op, file);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ products: 2, skus: 3, failed_rows: [], manual_kept: 0 });
      catalogs.push(JSON.stringify([await products(), await skus()]));
    }
    expect(catalogs[1]).toBe(catalogs[0]);
    expect(await products()).toEqual([
      expect.objectContaining({ goods_id: '24100000001', title: '西裝外套', main_sku_code: null, shopee_status: null }),
      expect.objectContaining({ goods_id: '24100000002', title: '襯衫' }),
    ]);
    expect(await skus()).toEqual([
      { sku_id: '88100000011', goods_id: '24100000001', color: '黑色', size: 'M', advice: '40-50公斤', parse_ok: 1 },
      { sku_id: '88100000012', goods_id: '24100000001', color: '黑色', size: 'L', advice: null, parse_ok: 1 },
      { sku_id: '88100000021', goods_id: '24100000002', color: '白色', size: 'XL', advice: null, parse_ok: 1 },
    ]);
    // searchable like any imported product
    const found = await op.get(`/api/shopee/products?q=${encodeURIComponent('衬衫')}`);
    expect((found.body as { items: Array<{ goods_id: string }> }).items.map((i) => i.goods_id)).toEqual([
      '24100000002',
    ]);
  });

  it('a product made from its SKU rows takes their title and the optional fields they fill, never blanking stored ones', async () => {
    const header = ['商品ID', '商品名稱', '商品規格ID', '商品規格', '主商品貨號', '商品當前狀態'];
    const first = await upload(
      op,
      await buildWorkbook(header, [
        { 商品ID: 24200000001, 商品名稱: '', 商品規格ID: 88200000011, 商品規格: '黑色,M' },
        { 商品ID: 24200000001, 商品名稱: '風衣', 商品規格ID: 88200000012, 商品規格: '黑色,L', 主商品貨號: 'M-1' },
        { 商品ID: 24200000001, 商品名稱: '風衣 2', 商品規格ID: 88200000013, 商品規格: '黑色', 商品當前狀態: '上架中' },
      ]),
    );
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      products: 1,
      skus: 3,
      failed_rows: [expect.objectContaining({ row: 4, sku_id: '88200000013' })], // imported, to complete
      manual_kept: 0,
    });
    const stored = () => admin.db.selectFrom('shopee_products').selectAll().where('goods_id', '=', '24200000001');
    expect(await stored().executeTakeFirstOrThrow()).toMatchObject({
      title: '風衣',
      main_sku_code: 'M-1',
      shopee_status: '上架中',
    });

    // the operator links it; a later file of SKU rows renames it, says nothing of its codes
    const link = await op.put('/api/shopee/products/24200000001/pdd-link', {
      url: 'https://mobile.yangkeduo.com/goods.html?goods_id=524200000001',
    });
    expect(link.status).toBe(200);
    const again = await upload(
      op,
      await buildWorkbook(header, [
        { 商品ID: '24200000001', 商品名稱: '風衣（新）', 商品規格ID: '88200000011', 商品規格: '黑色,M' },
      ]),
    );
    expect(again.body).toEqual({ products: 1, skus: 1, failed_rows: [], manual_kept: 0 });
    expect(await stored().executeTakeFirstOrThrow()).toMatchObject({
      title: '風衣（新）',
      main_sku_code: 'M-1',
      shopee_status: '上架中',
      pdd_goods_id: '524200000001',
    });
    // untitled SKU rows of a stored product: the SKUs are imported, the product left as it is
    const untitled = await upload(
      op,
      await buildWorkbook(header, [
        { 商品ID: '24200000001', 商品名稱: '', 商品規格ID: '88200000014', 商品規格: '白色,M' },
      ]),
    );
    expect(untitled.body).toEqual({ products: 0, skus: 1, failed_rows: [], manual_kept: 0 });
    expect(await stored().executeTakeFirstOrThrow()).toMatchObject({ title: '風衣（新）' });
  });

  it('a file of only bad rows imports nothing and says why, row by row; the database is unchanged', async () => {
    const before = await dumpDb(admin.db);
    const res = await upload(
      op,
      await buildWorkbook(
        ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
        [
          { 商品ID: 'ABC', 商品名稱: '壞ID', 商品規格ID: '88300000011', 商品規格: '黑色,M' },
          { 商品ID: '24300000001', 商品名稱: '沒有規格ID', 商品規格ID: 'x-1', 商品規格: '黑色,M' },
          { 商品ID: '24300000002', 商品名稱: '', 商品規格ID: '88300000021', 商品規格: '黑色,M' },
          { 商品ID: '', 商品名稱: '沒有商品ID', 商品規格ID: '88300000031', 商品規格: '黑色,M' },
        ],
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      products: 0,
      skus: 0,
      failed_rows: [
        { row: 2, reason: '商品ID「ABC」不是数字' },
        { row: 3, reason: '商品規格ID「x-1」既不是数字也不是 -' },
        { row: 4, reason: '商品 24300000002 的商品名稱为空，表里也没有它的商品行（商品規格ID 为 -），此 SKU 未导入' },
        { row: 5, reason: '商品ID 为空' },
      ],
      manual_kept: 0,
    });
    // the audit records the attempt; nothing else changed
    const audit = await admin.db
      .selectFrom('audit_log')
      .select('details_json')
      .where('action', '=', 'shopee.import')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(JSON.parse(String(audit?.details_json))).toMatchObject({ products: 0, skus: 0, failed_rows: 4 });
    const withoutAudit = (dump: string) => ({ ...(JSON.parse(dump) as object), audit_log: undefined });
    expect(withoutAudit(await dumpDb(admin.db))).toEqual(withoutAudit(before));
  });
});
