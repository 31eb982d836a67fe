import { unsafeTextChar } from '../../domain/text';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { deflated, sharedStrings, workbookParts, zip } from '../security/hostile-xlsx';
import { dumpDb, upload, xlsxForm } from './helpers';
import { buildWorkbook, emptyWorkbook, generatedExport } from './workbook';

describe('POST /api/shopee/imports (docs/architecture.md §5.2)', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('imports a generated export: exact counts, parsed fields, IDs as exact digits, failed rows by Excel row number', async () => {
    const gen = generatedExport();
    expect(gen.rows.length).toBeGreaterThanOrEqual(200);
    const res = await upload(op, await buildWorkbook(gen.header, gen.rows, { extraSheet: true }));
    expect(res.status).toBe(200);
    const body = res.body as {
      products: number;
      skus: number;
      failed_rows: Array<{ row: number; reason: string; sku_id?: string }>;
    };
    expect(body.products).toBe(60);
    expect(body.skus).toBe(180);
    expect(body.failed_rows.map((f) => f.row)).toEqual(gen.expect.failed.map((f) => f.row));
    gen.expect.failed.forEach((f, i) => {
      expect(body.failed_rows[i]?.reason).toContain(f.reason);
      if (f.sku_id) expect(body.failed_rows[i]?.sku_id).toBe(f.sku_id);
    });

    const products = await admin.db.selectFrom('shopee_products').selectAll().orderBy('goods_id').execute();
    expect(products).toHaveLength(60);
    for (const p of products) {
      const want = gen.expect.products.get(p.goods_id);
      expect(want).toBeDefined();
      expect(p).toMatchObject({
        title: want?.title,
        main_sku_code: want?.main_sku_code,
        shopee_status: want?.shopee_status,
        pdd_goods_id: null,
      });
    }
    const skus = await admin.db.selectFrom('shopee_skus').selectAll().execute();
    expect(skus).toHaveLength(180);
    for (const s of skus) {
      const want = gen.expect.skus.get(s.sku_id);
      expect({ ...s, created_at: undefined, updated_at: undefined }).toEqual({
        sku_id: s.sku_id,
        ...want,
        is_manual: 0,
        created_at: undefined,
        updated_at: undefined,
      });
    }
    // the three spec formats (docs/architecture.md §5.2), read back through the API
    const detail = await op.get('/api/shopee/products/21000000000');
    expect(detail.status).toBe(200);
    expect((detail.body as { skus: unknown[] }).skus).toEqual([
      expect.objectContaining({
        sku_id: '88000000000',
        spec_raw: '黑色,M【建議40-50公斤】',
        color: '黑色',
        size: 'M',
        advice: '40-50公斤',
        parse_ok: 1,
        is_manual: 0,
      }),
      expect.objectContaining({
        sku_id: '88000000001',
        spec_raw: '卡其色拼黑色,L 建議50-57.5kg',
        color: '卡其色拼黑色',
        size: 'L',
        advice: '50-57.5kg',
        parse_ok: 1,
      }),
      expect.objectContaining({
        sku_id: '88000000002',
        spec_raw: '白色,XL',
        color: '白色',
        size: 'XL',
        advice: null,
        parse_ok: 1,
      }),
    ]);
    // parse failures are stored with spec_raw and empty colour/size, and listed for completion
    const bad = await admin.db
      .selectFrom('shopee_skus')
      .selectAll()
      .where('parse_ok', '=', 0)
      .orderBy('sku_id')
      .execute();
    expect(bad.map((b) => b.spec_raw)).toEqual(['白色XL', ',XL', '白色XL', ',XL', '白色XL', ',XL']);
    expect(bad.every((b) => b.color === null && b.size === null)).toBe(true);
    const list = await op.get('/api/shopee/products?parse_failed=1&limit=200');
    expect(
      (list.body as { items: Array<{ goods_id: string; parse_failed_count: number }> }).items.map((i) => i.goods_id),
    ).toEqual([9, 19, 29, 39, 49, 59].map((p) => String(21000000000 + p * 7)));
    // the import is audited once, explicitly
    const audit = await admin.db.selectFrom('audit_log').selectAll().where('action', '=', 'shopee.import').execute();
    expect(audit).toHaveLength(1);
  });

  it('paginates the product list with a keyset cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await op.get(`/api/shopee/products?limit=25${cursor ? `&cursor=${cursor}` : ''}`);
      const body = res.body as { items: Array<{ goods_id: string }>; next_cursor: string | null };
      seen.push(...body.items.map((i) => i.goods_id));
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
    const res = await op.get('/api/shopee/products?cursor=not-a-cursor');
    expect(res.status).toBe(400);
  });

  it('a missing required column → 400 MISSING_COLUMNS naming it, and the database is unchanged', async () => {
    const before = await dumpDb(admin.db);
    const gen = generatedExport();
    const header = gen.header.filter((h) => h.trim() !== '商品規格' && h.trim() !== '商品ID');
    const res = await upload(
      op,
      await buildWorkbook(
        header,
        gen.rows.map((r) => ({ ...r, 商品名稱: 'CHANGED' })),
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: { code: 'MISSING_COLUMNS', details: { columns: ['商品ID', '商品規格'] } },
    });
    expect(await dumpDb(admin.db)).toBe(before);
  });

  it('non-xlsx bytes, an empty workbook, no file and a non-multipart body → 400, nothing written', async () => {
    const before = await dumpDb(admin.db);
    const notXlsx = await upload(op, Buffer.from('商品ID,商品名稱\n1,a\n'));
    expect(notXlsx.status).toBe(400);
    expect(notXlsx.body).toMatchObject({ error: { code: 'INVALID_XLSX' } });
    const corrupt = await upload(op, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 7)]));
    expect(corrupt.status).toBe(400);
    expect(corrupt.body).toMatchObject({ error: { code: 'INVALID_XLSX' } });
    const empty = await upload(op, await emptyWorkbook());
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: { code: 'EMPTY_WORKBOOK' } });
    const form = new FormData();
    form.append('other', 'x');
    const noFile = await op.post('/api/shopee/imports', form);
    expect(noFile.status).toBe(400);
    expect(noFile.body).toMatchObject({ error: { code: 'MISSING_FILE' } });
    const json = await op.post('/api/shopee/imports', { file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: { code: 'EXPECTED_MULTIPART' } });
    expect(await dumpDb(admin.db)).toBe(before);
  });

  it('re-import keeps PDD links, mappings, manual SKUs and hand fixes; updates titles; deletes nothing', async () => {
    const goodsId = '21000000000';
    const link = await op.put(`/api/shopee/products/${goodsId}/pdd-link`, {
      url: 'https://mobile.yangkeduo.com/goods.html?goods_id=555001',
    });
    expect(link.status).toBe(200);
    const now = '2026-08-07T08:00:00Z';
    await admin.db
      .updateTable('pdd_products')
      .set({
        collect_status: 'collected',
        skus_json: JSON.stringify({
          schema_version: 1,
          goods_id: '555001',
          title: 't',
          shop_name: null,
          price_granularity: 'sku',
          captured_at: now,
          dimensions: [{ key: 'color', name: '颜色' }],
          skus: [
            {
              options: { color: '黑' },
              price_cent: 100,
              raw_price: '¥1.00',
              available: true,
              price_observed_at: { color: '黑' },
            },
          ],
        }),
      })
      .where('goods_id', '=', '555001')
      .execute();
    expect((await op.put('/api/mappings/88000000000', { pdd_options: { color: '黑' } })).status).toBe(200);
    expect(
      (await op.post(`/api/shopee/products/${goodsId}/skus`, { sku_id: '77000000001', color: '紅色', size: 'S' }))
        .status,
    ).toBe(201);
    // a hand fix of a parse failure (product 9, third SKU)
    expect((await op.put('/api/shopee/skus/88000000092', { color: '白色', size: 'XL' })).status).toBe(200);
    // a manual SKU whose id the next export also carries: the operator's version stays
    expect(
      (await op.post(`/api/shopee/products/${goodsId}/skus`, { sku_id: '88000000011', color: '手填', size: 'F' }))
        .status,
    ).toBe(409);

    const gen = generatedExport();
    const rows = gen.rows
      .filter((r) => r.商品規格ID !== 88000000001 && r.商品規格ID !== '88000000001') // a SKU missing from the new export
      .map((r) =>
        r.商品規格ID === '-' || r.商品規格ID === '' ? { ...r, 商品名稱: `${String(r.商品名稱)}（新）` } : r,
      );
    const res = await upload(op, await buildWorkbook(gen.header, rows));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ products: 60, skus: 179 });
    expect((res.body as { manual_kept: number }).manual_kept).toBe(1);

    const product = await admin.db
      .selectFrom('shopee_products')
      .selectAll()
      .where('goods_id', '=', goodsId)
      .executeTakeFirstOrThrow();
    expect(product).toMatchObject({
      title: '西裝外套 0 號（新）',
      pdd_goods_id: '555001',
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=555001',
    });
    expect(
      await admin.db.selectFrom('sku_mappings').selectAll().where('shopee_sku_id', '=', '88000000000').execute(),
    ).toHaveLength(1);
    expect(
      await admin.db.selectFrom('shopee_skus').selectAll().where('sku_id', '=', '77000000001').executeTakeFirst(),
    ).toMatchObject({ is_manual: 1, color: '紅色', size: 'S' });
    expect(
      await admin.db.selectFrom('shopee_skus').selectAll().where('sku_id', '=', '88000000092').executeTakeFirst(),
    ).toMatchObject({ is_manual: 1, color: '白色', size: 'XL', parse_ok: 1 });
    expect(
      await admin.db.selectFrom('shopee_skus').select('sku_id').where('sku_id', '=', '88000000001').executeTakeFirst(),
    ).toBeDefined();
    expect(
      (await admin.db.selectFrom('pdd_products').selectAll().where('goods_id', '=', '555001').executeTakeFirstOrThrow())
        .collect_status,
    ).toBe('collected');
  });

  it('an optional column absent from the file leaves the stored value alone', async () => {
    const res = await upload(
      op,
      await buildWorkbook(
        ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
        [{ 商品ID: '21000000007', 商品名稱: '只有必需列', 商品規格ID: '-' }],
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ products: 1, skus: 0, failed_rows: [], manual_kept: 0 });
    const p = await admin.db
      .selectFrom('shopee_products')
      .selectAll()
      .where('goods_id', '=', '21000000007')
      .executeTakeFirstOrThrow();
    expect(p).toMatchObject({ title: '只有必需列', main_sku_code: 'M-1', shopee_status: '上架中' });
  });

  it('accepts the upload as a browser sends it (filename, content type)', async () => {
    const res = await op.post(
      '/api/shopee/imports',
      xlsxForm(await buildWorkbook(['商品ID', '商品名稱', '商品規格ID', '商品規格'], []), '蝦皮.xlsx'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ products: 0, skus: 0, failed_rows: [], manual_kept: 0 });
  });

  it('stores cells without control characters, direction overrides or lone surrogates', async () => {
    // Written by hand: raw controls, and what only character references can carry (a lone
    // surrogate; U+202E spelled as a reference too).
    const header = ['商品ID', '商品名稱', '商品規格ID', '商品規格', '主商品貨號', '商品當前狀態', '商品選項貨號'];
    const cell = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`;
    const row = (n: number, cells: string[]) => `<row r="${n}">${cells.map(cell).join('')}</row>`;
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      row(1, header) +
      row(2, [
        '21900000001',
        '西裝\u0000外套\u0007&#7; \u202e&#x202E;黑色\nM&#xD800;碼&#xDC00;&#0;',
        '-',
        '',
        'MAIN\u0001-1\u2066',
        '上架\u202d中',
        '',
      ]) +
      row(3, ['21900000001', '', '88900000001', '黑色\u0000,M\u202e', '', '', 'SKU\u0008-1&#xDFFF;']) +
      row(4, ['2190\u202e0000002', 'x', '-', '', '', '', '']) +
      '</sheetData></worksheet>';
    const file = zip([...workbookParts(), { name: 'xl/worksheets/sheet1.xml', ...deflated(sheet) }, sharedStrings([])]);
    const res = await upload(op, file);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      products: 1,
      skus: 1,
      failed_rows: [{ row: 4, reason: '商品ID「21900000002」不是数字' }],
      manual_kept: 0,
    });
    const product = await admin.db
      .selectFrom('shopee_products')
      .select(['title', 'search_text', 'main_sku_code', 'shopee_status'])
      .where('goods_id', '=', '21900000001')
      .executeTakeFirstOrThrow();
    expect(product).toMatchObject({ title: '西裝外套 黑色M碼', main_sku_code: 'MAIN-1', shopee_status: '上架中' });
    const sku = await admin.db
      .selectFrom('shopee_skus')
      .select(['spec_raw', 'color', 'size', 'sku_code'])
      .where('sku_id', '=', '88900000001')
      .executeTakeFirstOrThrow();
    expect(sku).toEqual({ spec_raw: '黑色,M', color: '黑色', size: 'M', sku_code: 'SKU-1' });
    for (const text of [...Object.values(product), ...Object.values(sku)])
      expect({ text, unsafe: unsafeTextChar(String(text)) }).toEqual({ text, unsafe: null });
  });
});
