import { matchingCombinations } from '../../admin/catalog/auto-mapping-match';
import type { AutoMappingPreview, MappingSaved, ProductDetailView } from '../../domain/catalog-views';
import { normalizeSpecText } from '../../domain/spec-agreement';
import { optionKey } from '../../domain/option-key';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { dumpDb, skusJson, upload } from './helpers';
import { buildWorkbook } from './workbook';

const HEADER = ['商品ID', '商品名稱', '商品規格ID', '商品規格'];
const TEE = '1101';
const TEE_PDD = '410100';
const HAT = '1102';
const HAT_PDD = '410200';

describe('matchingCombinations: the spec text read as option texts', () => {
  const reads = (...texts: string[]) => new Set(texts.map(normalizeSpecText));
  const parts = [
    ['粉红', 'S'],
    ['粉红', 'M'],
    ['红', 'S'],
    ['红色系', 'S'],
  ];

  it('ignores 简繁, width, case, spaces and separators, in dimension order', () => {
    expect(matchingCombinations(reads('粉紅,S'), parts)).toEqual([0]);
    expect(matchingCombinations(reads('粉红 / ｍ'), parts)).toEqual([1]);
    expect(matchingCombinations(reads('紅，s'), parts)).toEqual([2]);
  });

  it('takes the parts in any order only when the dimension order finds nothing', () => {
    expect(matchingCombinations(reads('S,紅色系'), parts)).toEqual([3]);
    expect(
      matchingCombinations(reads('S,M'), [
        ['S', 'M'],
        ['M', 'S'],
      ]),
    ).toEqual([0]);
    expect(
      matchingCombinations(reads('L,S'), [
        ['S', 'L'],
        ['L ', 'S'],
      ]),
    ).toEqual([1]);
  });

  it('several combinations reading the same, or none, are said as such', () => {
    expect(
      matchingCombinations(reads('藍,L'), [
        ['蓝', 'L'],
        ['藍', 'L'],
      ]),
    ).toEqual([0, 1]);
    expect(matchingCombinations(reads('黑色,M'), parts)).toEqual([]);
    expect(matchingCombinations(reads('粉红'), parts)).toEqual([]);
  });
});

describe('按文字一致全部映射 (GET/POST /api/shopee/products/:goodsId/auto-mappings)', () => {
  let admin: TestAdmin;
  let op: OperatorClient;

  const link = async (goodsId: string, pddId: string, skus: Parameters<typeof skusJson>[1]) => {
    const linked = await op.put(`/api/shopee/products/${goodsId}/pdd-link`, {
      url: `https://mobile.yangkeduo.com/goods.html?goods_id=${pddId}`,
    });
    expect(linked.status).toBe(200);
    await admin.db
      .updateTable('pdd_products')
      .set({ collect_status: 'collected', skus_json: JSON.stringify(skusJson(pddId, skus)) })
      .where('goods_id', '=', pddId)
      .execute();
  };
  const preview = async (goodsId: string): Promise<AutoMappingPreview> => {
    const res = await op.get(`/api/shopee/products/${goodsId}/auto-mappings`);
    expect(res.status).toBe(200);
    return res.body as AutoMappingPreview;
  };
  const confirmed = (p: AutoMappingPreview) => ({
    pdd_goods_id: p.pdd_goods_id,
    mappings: p.mappable.map((m) => ({ sku_id: m.sku_id, pdd_option_key: m.pdd.option_key })),
  });
  const mappedTo = async (skuId: string) =>
    (
      await admin.db
        .selectFrom('sku_mappings')
        .select('pdd_options')
        .where('shopee_sku_id', '=', skuId)
        .executeTakeFirst()
    )?.pdd_options ?? null;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    const row = (goodsId: string, skuId: string, spec: string) => ({
      商品ID: goodsId,
      商品名稱: goodsId === TEE ? 'T恤' : '帽子',
      商品規格ID: skuId,
      商品規格: spec,
    });
    const res = await upload(
      op,
      await buildWorkbook(HEADER, [
        { 商品ID: TEE, 商品名稱: 'T恤', 商品規格ID: '-' },
        row(TEE, '2101', '粉紅,S'),
        row(TEE, '2102', '粉紅,M【建議40-50公斤】'),
        row(TEE, '2103', 'S,紅'),
        row(TEE, '2104', '白色,M'),
        row(TEE, '2105', '藍,L'),
        row(TEE, '2106', '紅,M'),
        { 商品ID: HAT, 商品名稱: '帽子', 商品規格ID: '-' },
        row(HAT, '2201', '黑色,F'),
        row(HAT, '2202', '白色,F'),
      ]),
    );
    expect(res.status).toBe(200);
    await link(TEE, TEE_PDD, [
      { color: '粉红', size: 'S', price_cent: 1090 },
      { color: '粉红', size: 'M', price_cent: 1090 },
      { color: '红', size: 'S', price_cent: 990 },
      { color: '红', size: 'M', price_cent: 990, available: false },
      { color: '蓝', size: 'L', price_cent: 1290 },
      { color: '藍', size: 'L', price_cent: 1290 },
    ]);
    await link(HAT, HAT_PDD, [
      { color: '黑色', size: 'F', price_cent: 1500 },
      { color: '白色', size: 'F', price_cent: 1500 },
    ]);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('an unknown product is 404', async () => {
    expect((await op.get('/api/shopee/products/9999/auto-mappings')).status).toBe(404);
  });

  it('previews: exact text maps, ambiguous and unmatched are listed with why, mapped SKUs are left alone', async () => {
    // mapped by hand to something else: the preview never offers it again
    expect((await op.put('/api/mappings/2106', { pdd_options: { color: '红', size: 'S' } })).status).toBe(200);
    const p = await preview(TEE);
    expect(p).toMatchObject({ goods_id: TEE, pdd_goods_id: TEE_PDD, already_mapped: 1 });
    expect(p.mappable.map((m) => [m.sku_id, m.pdd.options])).toEqual([
      ['2101', { color: '粉红', size: 'S' }],
      ['2102', { color: '粉红', size: 'M' }],
      ['2103', { color: '红', size: 'S' }],
    ]);
    // the first row's price was read on it, the second's carried over (skusJson's price_observed_at)
    expect(p.mappable[0]?.pdd).toMatchObject({ price_cent: 1090, price_measured: true, price_inferred: false });
    expect(p.mappable[1]?.pdd).toMatchObject({ price_cent: 1090, price_measured: false, price_inferred: true });
    expect(p.skipped.map((s) => [s.sku_id, s.reason, s.candidates.length])).toEqual([
      ['2104', 'NO_MATCH', 0],
      ['2105', 'AMBIGUOUS', 2],
    ]);
    const product = (await op.get(`/api/shopee/products/${TEE}`)).body as ProductDetailView;
    expect(product.auto_mappable).toBe(3);
    expect(product.skus.find((s) => s.sku_id === '2106')?.pdd_sku).toMatchObject({ price_cent: 990 });
    expect(product.skus.find((s) => s.sku_id === '2101')?.pdd_sku).toBeNull();
  });

  it('confirming writes each previewed mapping as a hand mapping is written, audited one by one', async () => {
    const p = await preview(TEE);
    const res = await op.post(`/api/shopee/products/${TEE}/auto-mappings`, confirmed(p));
    expect(res.status).toBe(200);
    const mapped = (res.body as { mapped: MappingSaved[] }).mapped;
    expect(mapped.map((m) => [m.shopee_sku_id, m.pdd_option_key])).toEqual([
      ['2101', optionKey({ color: '粉红', size: 'S' })],
      ['2102', optionKey({ color: '粉红', size: 'M' })],
      ['2103', optionKey({ color: '红', size: 'S' })],
    ]);
    const rows = await admin.db
      .selectFrom('sku_mappings')
      .selectAll()
      .where('shopee_sku_id', 'in', ['2101', '2102', '2103'])
      .execute();
    expect(rows.map((r) => [r.pdd_goods_id, r.mapped_by])).toEqual([
      [TEE_PDD, 'admin'],
      [TEE_PDD, 'admin'],
      [TEE_PDD, 'admin'],
    ]);
    const audits = await admin.db
      .selectFrom('audit_log')
      .select(['target_id'])
      .where('action', '=', 'sku_mapping.set')
      .where('target_id', 'in', ['2101', '2102', '2103'])
      .execute();
    expect(audits.map((a) => a.target_id).sort()).toEqual(['2101', '2102', '2103']);
    // left alone: unmatched, ambiguous, and the hand mapping
    expect(await mappedTo('2104')).toBeNull();
    expect(await mappedTo('2105')).toBeNull();
    expect(JSON.parse((await mappedTo('2106')) ?? 'null')).toEqual({ color: '红', size: 'S' });
    const after = await preview(TEE);
    expect(after).toMatchObject({ mappable: [], already_mapped: 4 });
    const product = (await op.get(`/api/shopee/products/${TEE}`)).body as ProductDetailView;
    expect(product.auto_mappable).toBe(0);
    expect(product.skus.find((s) => s.sku_id === '2102')?.pdd_sku).toMatchObject({
      price_cent: 1090,
      price_inferred: true,
    });
  });

  it('writes nothing when any previewed SKU changed meanwhile: 409 naming it', async () => {
    const p = await preview(HAT);
    expect(p.mappable.map((m) => m.sku_id)).toEqual(['2201', '2202']);
    // another operator maps one of them by hand in between
    expect((await op.put('/api/mappings/2202', { pdd_options: { color: '黑色', size: 'F' } })).status).toBe(200);
    const before = await dumpDb(admin.db);
    const res = await op.post(`/api/shopee/products/${HAT}/auto-mappings`, confirmed(p));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { code: 'AUTO_MAPPING_CHANGED', details: { changed: ['2202'] } } });
    expect(await dumpDb(admin.db)).toBe(before);
    expect(await mappedTo('2201')).toBeNull();

    // a list for another PDD goods is refused the same way
    const other = { ...confirmed(await preview(HAT)), pdd_goods_id: TEE_PDD };
    expect((await op.post(`/api/shopee/products/${HAT}/auto-mappings`, other)).status).toBe(409);
    expect(await dumpDb(admin.db)).toBe(before);
    // and a list naming a SKU twice never reaches the service
    const twice = { pdd_goods_id: HAT_PDD, mappings: [confirmed(p).mappings[0], confirmed(p).mappings[0]] };
    expect((await op.post(`/api/shopee/products/${HAT}/auto-mappings`, twice)).status).toBe(400);
  });
});
