import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { catalogActivities } from '../../activities/admin/catalog';
import type { MappingSaved, PddGoodsDetailView, ProductDetailView } from '../../domain/catalog-views';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { dumpDb, skusJson, upload } from './helpers';
import { buildWorkbook } from './workbook';

/**
 * The PDD goods page (options, prices, stock, metrics, recent collects), mapping to an option
 * that is out of stock or has no price (allowed, with a warning), and unlinking a product's goods.
 */
describe('PDD goods page, mapping warnings, unlink', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  const GOODS = '91000000001';
  const PDD = '95000000001';
  const PDD_OTHER = '95000000002';
  const GOODS_OTHER = '91000000002';
  const SKU_BLACK = '92000000001';
  const SKU_WHITE = '92000000002';
  const SKU_RED = '92000000003';

  const collect = async (pdd: string, runId: string, deviceId: string, result: ReturnType<typeof skusJson>) => {
    const env = new MockActivityEnvironment(
      { workflowExecution: { workflowId: `collect/${pdd}`, runId } },
      { logger: new DefaultLogger('ERROR') },
    );
    const acts = catalogActivities(admin.db);
    await env.run(acts.markCollecting, { pddGoodsId: pdd, workflowId: `collect/${pdd}`, deviceId });
    return env.run(acts.saveCollectResult, { pddGoodsId: pdd, workflowId: `collect/${pdd}`, deviceId, result });
  };

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    const header = ['商品ID', '商品名稱', '商品規格ID', '商品規格'];
    expect(
      (
        await upload(
          op,
          await buildWorkbook(header, [
            { 商品ID: GOODS, 商品名稱: '西裝外套', 商品規格ID: '-' },
            { 商品ID: GOODS, 商品名稱: '西裝外套', 商品規格ID: SKU_BLACK, 商品規格: '黑色,M' },
            { 商品ID: GOODS, 商品名稱: '西裝外套', 商品規格ID: SKU_WHITE, 商品規格: '白色,M' },
            { 商品ID: GOODS, 商品名稱: '西裝外套', 商品規格ID: SKU_RED, 商品規格: '红色,M' },
            { 商品ID: GOODS_OTHER, 商品名稱: '襯衫', 商品規格ID: '-' },
          ]),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await op.put(`/api/shopee/products/${GOODS}/pdd-link`, {
          url: `https://mobile.yangkeduo.com/goods.html?goods_id=${PDD}`,
        })
      ).status,
    ).toBe(200);
    // Two runs on two phones; the second one is what the goods shows.
    await collect(PDD, 'run-1', 'phone-1', skusJson(PDD, [{ color: '黑色', size: 'M', price_cent: 5000 }]));
    const result = {
      ...skusJson(PDD, [
        { color: '黑色', size: 'M', price_cent: 5990 },
        { color: '白色', size: 'M', price_cent: 6290, available: false },
        { color: '红色', size: 'M', price_cent: null },
      ]),
      metrics: { sales_text: '已拼2.3万件' },
    };
    expect(await collect(PDD, 'run-2', 'phone-2', result)).toEqual({ status: 'collected', skus: 3 });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('GET /api/pdd/products/:id: dimensions, every option with price (null stays null) and stock, metrics, the runs newest first', async () => {
    const res = await op.get(`/api/pdd/products/${PDD}`);
    expect(res.status).toBe(200);
    const goods = res.body as PddGoodsDetailView;
    expect(goods.dimensions).toEqual([
      { key: 'color', name: '颜色分类' },
      { key: 'size', name: '尺码' },
    ]);
    expect(goods.skus.map((s) => [s.options.color, s.price_cent, s.available, s.warnings])).toEqual([
      ['黑色', 5990, true, []],
      ['白色', 6290, false, ['OUT_OF_STOCK']],
      ['红色', null, true, ['PRICE_UNKNOWN']],
    ]);
    // only the first row was read on its own combination; a priced row read at another is 推测价格
    expect(goods.skus.map((s) => [s.price_measured, s.price_inferred])).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
    expect(goods.metrics).toEqual({ sales_text: '已拼2.3万件' });
    expect(goods.linked_products).toEqual([{ goods_id: GOODS, title: '西裝外套' }]);
    expect(goods.recent_collects.map((r) => [r.task_id, r.status, r.device_id])).toEqual([
      [`collect/${PDD}/run-2`, 'succeeded', 'phone-2'],
      [`collect/${PDD}/run-1`, 'succeeded', 'phone-1'],
    ]);
    expect(goods.recent_collects[0]?.finished_at).toMatch(/Z$/);
  });

  it('a collect without metrics (an older device worker) answers metrics null, not an error', async () => {
    expect(
      (await op.put(`/api/shopee/products/${GOODS_OTHER}/pdd-link`, { url: `goods.html?goods_id=${PDD_OTHER}` }))
        .status,
    ).toBe(200);
    await collect(PDD_OTHER, 'run-1', 'phone-1', skusJson(PDD_OTHER, [{ color: '黑色', size: 'M', price_cent: 100 }]));
    const goods = (await op.get(`/api/pdd/products/${PDD_OTHER}`)).body as PddGoodsDetailView;
    expect(goods.metrics).toBeNull();
    expect(goods.skus).toHaveLength(1);
  });

  it('mapping to an out-of-stock or unknown-price option is saved with a warning; a healthy one has none', async () => {
    const cases: Array<[string, string, string[]]> = [
      [SKU_BLACK, '黑色', []],
      [SKU_WHITE, '白色', ['OUT_OF_STOCK']],
      [SKU_RED, '红色', ['PRICE_UNKNOWN']],
    ];
    for (const [sku, color, warnings] of cases) {
      const res = await op.put(`/api/mappings/${sku}`, { pdd_options: { color, size: 'M' } });
      expect(res.status).toBe(200);
      expect((res.body as MappingSaved).warnings).toEqual(warnings);
    }
    const audit = await admin.db
      .selectFrom('audit_log')
      .select('details_json')
      .where('action', '=', 'sku_mapping.set')
      .where('target_id', '=', SKU_WHITE)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details_json ?? '{}')).toMatchObject({ warnings: ['OUT_OF_STOCK'] });
    // the mapping dialog shows the same warnings beside the rows
    const board = (await op.get(`/api/mappings?goods_id=${GOODS}`)).body as {
      pdd_skus: Array<{ options: Record<string, string>; warnings: string[]; price_inferred: boolean }>;
    };
    expect(board.pdd_skus.map((s) => s.warnings)).toEqual([[], ['OUT_OF_STOCK'], ['PRICE_UNKNOWN']]);
    expect(board.pdd_skus.map((s) => s.price_inferred)).toEqual([false, true, false]);
  });

  it('DELETE …/pdd-link unlinks (audited); the mappings stay with their goods and come back on relinking', async () => {
    const res = await op.del(`/api/shopee/products/${GOODS}/pdd-link`);
    expect(res.status).toBe(200);
    const product = (await op.get(`/api/shopee/products/${GOODS}`)).body as ProductDetailView;
    expect(product).toMatchObject({ state: 'unlinked', pdd_goods_id: null, pdd_goods_url: null, pdd: null });
    expect(product.skus.every((s) => s.mapping === null)).toBe(true);
    const audit = await admin.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'shopee.pdd_link.clear')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details_json ?? '{}')).toEqual({ previous_pdd_goods_id: PDD });
    // the goods itself and its mappings are kept
    expect(
      await admin.db.selectFrom('sku_mappings').select('shopee_sku_id').where('pdd_goods_id', '=', PDD).execute(),
    ).toHaveLength(3);
    expect((await op.get(`/api/pdd/products/${PDD}`)).status).toBe(200);

    // linking another goods shows none of them; linking back shows all three again
    await op.put(`/api/shopee/products/${GOODS}/pdd-link`, { url: `goods.html?goods_id=${PDD_OTHER}` });
    expect(
      ((await op.get(`/api/shopee/products/${GOODS}`)).body as ProductDetailView).skus.filter(
        (s) => s.mapping !== null,
      ),
    ).toHaveLength(0);
    await op.put(`/api/shopee/products/${GOODS}/pdd-link`, { url: `goods.html?goods_id=${PDD}` });
    expect(
      ((await op.get(`/api/shopee/products/${GOODS}`)).body as ProductDetailView).skus.filter(
        (s) => s.mapping !== null,
      ),
    ).toHaveLength(3);
  });

  it('unlinking a product that does not exist is a 404 and writes nothing', async () => {
    const before = await dumpDb(admin.db);
    const res = await op.del('/api/shopee/products/99999999/pdd-link');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'SHOPEE_PRODUCT_NOT_FOUND' } });
    expect(await dumpDb(admin.db)).toBe(before);
  });
});
