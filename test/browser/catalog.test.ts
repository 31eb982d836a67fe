import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startBrowserRig, waitForHash, waitForText, waitInPage, type BrowserRig } from '../browser';
import { skusJson } from '../catalog/helpers';
import { buildWorkbook, type ExportRow } from '../catalog/workbook';
import { sharedTemporal, TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * The catalog pages (商品, 商品详情, 规格映射, PDD 商品) in a real browser against a real admin
 * (ui/dist must be built: `npm test` does it; by hand `npx vite build --config ui/vite.config.ts`).
 * No phone is attached: a started collect stays 采集中 (waiting for a phone); the whole collect
 * is covered by test/catalog/collect-e2e.test.ts. The tests share one page, in order.
 */

const A = '31000000001'; // two SKUs, one of them a parse failure
const B = '31000000002'; // title with an underscore (search is literal)
const C = '31000000003'; // linked and "collected" outside the UI, for the mapping dialog
const A_BAD_SKU = '32000000012';
const A_PDD = '512345678901';
const C_PDD = '612345678901';

let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
let shotsDir: string;

let rig: BrowserRig;
beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page, shotsDir } = rig);
});

afterAll(async () => {
  await rig?.close();
});

/** Waits until the rows with `testid` carry exactly these `attr` values, in order; says what it saw if not. */
async function waitForRows(testid: string, attr: string, want: string[]): Promise<void> {
  const seen = `Array.from(document.querySelectorAll('[data-testid="${testid}"]')).map((e) => e.getAttribute('${attr}')).join(',')`;
  try {
    await waitInPage<string>(page, seen, (rows) => rows === want.join(','));
  } catch {
    throw new Error(`${testid} rows: wanted [${want.join(',')}], saw [${await page.evaluate<string>(seen)}]`);
  }
}

function productRow(goodsId: string): Locator {
  return page.locator(`[data-testid="product-row"][data-goods-id="${goodsId}"]`);
}

function skuRow(skuId: string): Locator {
  return page.locator(`[data-testid="sku-row"][data-sku-id="${skuId}"]`);
}

async function openProduct(goodsId: string): Promise<void> {
  await page.getByTestId('nav-products').click();
  await productRow(goodsId).click();
  await waitForHash(page, `#/products/${goodsId}`);
  await page.getByTestId('product-title').waitFor();
}

/** A small export: summary row + SKU rows per product, one unparsable spec, one bad ID row. */
async function smallExport(): Promise<Buffer> {
  const header = ['商品ID', '商品名稱', '商品規格ID', '商品規格', '主商品貨號', '商品當前狀態'];
  const rows: ExportRow[] = [
    { 商品ID: A, 商品名稱: '西裝外套 A', 商品規格ID: '-', 主商品貨號: 'M-A', 商品當前狀態: '上架中' },
    { 商品ID: A, 商品名稱: '西裝外套 A', 商品規格ID: '32000000011', 商品規格: '黑色,M【建議40-50公斤】' },
    { 商品ID: A, 商品名稱: '西裝外套 A', 商品規格ID: A_BAD_SKU, 商品規格: '白色XL' }, // Excel row 4: no comma
    { 商品ID: B, 商品名稱: '襯衫_B', 商品規格ID: '-', 主商品貨號: 'M-B' },
    { 商品ID: B, 商品名稱: '襯衫_B', 商品規格ID: '32000000021', 商品規格: '白色,L' },
    { 商品ID: C, 商品名稱: '襯衫xB', 商品規格ID: '-', 主商品貨號: 'M-C' },
    { 商品ID: C, 商品名稱: '襯衫xB', 商品規格ID: '32000000031', 商品規格: '黑色,M' },
    { 商品ID: C, 商品名稱: '襯衫xB', 商品規格ID: '32000000032', 商品規格: '黑色,L' },
    { 商品ID: 'ABC', 商品名稱: '壞ID', 商品規格ID: '-' }, // Excel row 10
  ];
  return buildWorkbook(header, rows);
}

test('the 商品 page asks for login first, then imports a workbook: counts, the failed rows, the parse failure marked', async () => {
  await page.goto(`${admin.url}/#/products`);
  await waitForHash(page, '#/login');
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await waitForHash(page, '#/products');
  await page.getByTestId('page-products').waitFor();
  await waitForText(page, 'products-table', '没有商品');

  expect(await page.getByTestId('import-start').isDisabled()).toBe(true);
  await page.getByTestId('import-file').setInputFiles({
    name: 'export.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await smallExport(),
  });
  await page.getByTestId('import-start').click();
  await page.getByTestId('import-result').waitFor();
  expect(await page.getByTestId('import-products').textContent()).toBe('3');
  expect(await page.getByTestId('import-skus').textContent()).toBe('5');
  await waitForRows('import-failed-row', 'data-row', ['4', '10']);
  const parseFailure = page.locator('[data-testid="import-failed-row"][data-row="4"]');
  expect(await parseFailure.getAttribute('data-sku-id')).toBe(A_BAD_SKU);
  expect(await parseFailure.getByTestId('import-failed-parse').textContent()).toContain(A_BAD_SKU);
  expect(
    await page.locator('[data-testid="import-failed-row"][data-row="10"]').getByTestId('import-failed-parse').count(),
  ).toBe(0);
  expect(await page.locator('[data-testid="import-failed-row"][data-row="10"]').textContent()).toContain('不是数字');

  // The list refreshed after the import: the product with the failure is marked.
  await waitForRows('product-row', 'data-goods-id', [A, B, C]);
  expect(await productRow(A).getAttribute('data-parse-failed')).toBe('1');
  expect(await productRow(A).getByTestId('parse-failed-count').textContent()).toContain('1 个待补全');
  expect(await productRow(B).getByTestId('parse-failed-count').count()).toBe(0);
  expect(await productRow(A).getByTestId('state-badge').textContent()).toBe('未填链接');
});

test('the list filters by 未填链接, by parse failures, and searches an underscore literally', async () => {
  // C gets its PDD goods (and a collect result) outside the UI: it is no longer 未填链接.
  expect(
    (
      await api.put(`/api/shopee/products/${C}/pdd-link`, {
        url: `https://mobile.yangkeduo.com/goods.html?goods_id=${C_PDD}`,
      })
    ).status,
  ).toBe(200);
  await admin.db
    .updateTable('pdd_products')
    .set({
      collect_status: 'collected',
      title: 'PDD 衬衫',
      shop_name: '测试旗舰店',
      collected_at: '2026-08-07T08:00:00Z',
      skus_json: JSON.stringify(
        skusJson(C_PDD, [
          { color: '黑色', size: 'M', price_cent: 5990 },
          { color: '黑色', size: 'L', price_cent: 5990 },
          { color: '白色', size: 'M', price_cent: 6290, available: false },
        ]),
      ),
    })
    .where('goods_id', '=', C_PDD)
    .execute();

  await page.getByTestId('products-state').selectOption({ label: '未填链接' });
  await waitForRows('product-row', 'data-goods-id', [A, B]);
  await page.getByTestId('products-state').selectOption({ label: '已采集' });
  await waitForRows('product-row', 'data-goods-id', [C]);
  expect(await productRow(C).getByTestId('state-badge').textContent()).toBe('已采集');
  await page.getByTestId('products-state').selectOption({ label: '全部状态' });
  await waitForRows('product-row', 'data-goods-id', [A, B, C]);

  await page.getByTestId('products-parse-failed').check();
  await waitForRows('product-row', 'data-goods-id', [A]);
  await page.getByTestId('products-parse-failed').uncheck();
  await waitForRows('product-row', 'data-goods-id', [A, B, C]);

  // `_` is not a wildcard: 襯衫_B, not 襯衫xB.
  await page.getByTestId('products-search').fill('衫_B');
  await waitForRows('product-row', 'data-goods-id', [B]);
  await page.getByTestId('products-search').fill('');
  await waitForRows('product-row', 'data-goods-id', [A, B, C]);

  const shot = path.join(shotsDir, 'product-list.png');
  await page.screenshot({ path: shot, fullPage: true });
  process.stderr.write(`product list screenshot: ${shot}\n`);
});

test('a link without goods_id is refused in Chinese and nothing is linked', async () => {
  await openProduct(A);
  expect(await page.getByTestId('pdd-link-card').textContent()).toContain('还没有填写拼多多链接');
  await page.getByTestId('pdd-url').fill('https://mobile.yangkeduo.com/goods.html?id=1');
  await page.getByTestId('pdd-url-save').click();
  await page.getByTestId('detail-error').waitFor();
  expect(await page.getByTestId('detail-error').textContent()).toContain('链接里找不到商品编号');
  expect(await page.getByTestId('pdd-goods-id').count()).toBe(0);
  expect(
    ((await api.get(`/api/shopee/products/${A}`)).body as { pdd_goods_id: string | null }).pdd_goods_id,
  ).toBeNull();
});

test('pasting a PDD share text links the goods id inside it; the product is 待采集', async () => {
  const share = `【拼多多】西装外套男 仅需59.9元 https://mobile.yangkeduo.com/goods.html?goods_id=${A_PDD}&page_from=35&_wvx=10 复制这段话打开拼多多`;
  await page.getByTestId('pdd-url').fill(share);
  await page.getByTestId('pdd-url-save').click();
  await page.getByTestId('pdd-goods-id').waitFor();
  expect(await page.getByTestId('pdd-goods-id').textContent()).toBe(A_PDD);
  expect(await page.getByTestId('detail-message').textContent()).toBe('已保存拼多多链接');
  expect(await page.getByTestId('detail-error').count()).toBe(0);
  const status = page.getByTestId('pdd-status');
  expect(await status.getAttribute('data-status')).toBe('pending');
  expect(await status.getByTestId('state-badge').textContent()).toBe('待采集');
  expect(await page.getByTestId('collect-start').textContent()).toBe('开始采集');
  // Nothing collected yet: no mapping to do.
  expect(await page.getByTestId('mapping-open').isDisabled()).toBe(true);
  expect(((await api.get(`/api/shopee/products/${A}`)).body as { pdd_goods_id: string }).pdd_goods_id).toBe(A_PDD);
});

test('a parse failure fixed by hand becomes a manual SKU', async () => {
  const bad = skuRow(A_BAD_SKU);
  expect(await bad.getAttribute('data-parse-ok')).toBe('0');
  expect(await bad.textContent()).toContain('待补全');
  expect(await bad.getByTestId('sku-manual').count()).toBe(0);
  await bad.getByTestId('sku-edit').click();
  await bad.getByTestId('sku-color').fill('白色');
  await bad.getByTestId('sku-size').fill('XL');
  await bad.getByTestId('sku-save').click();
  await page
    .locator(`[data-testid="sku-row"][data-sku-id="${A_BAD_SKU}"][data-parse-ok="1"][data-is-manual="1"]`)
    .waitFor();
  expect(await bad.getByTestId('sku-manual').textContent()).toContain('手工');
  expect(await bad.textContent()).not.toContain('待补全');
  expect(await page.getByTestId('detail-message').textContent()).toBe(`已保存 SKU ${A_BAD_SKU}`);
  // The other SKU is untouched.
  expect(await skuRow('32000000011').getAttribute('data-is-manual')).toBe('0');
  const stored = (await api.get(`/api/shopee/products/${A}`)).body as {
    skus: Array<{ sku_id: string; color: string; size: string; parse_ok: number; is_manual: number }>;
  };
  expect(stored.skus.find((s) => s.sku_id === A_BAD_SKU)).toMatchObject({
    color: '白色',
    size: 'XL',
    parse_ok: 1,
    is_manual: 1,
  });
  await page.screenshot({ path: path.join(shotsDir, 'product-detail.png'), fullPage: true });
});

test('采集 with no phone attached shows 采集中, waiting for a phone', async () => {
  await page.getByTestId('collect-start').click();
  await page.getByTestId('collect-live').waitFor();
  expect(await page.getByTestId('detail-message').textContent()).toBe('已开始采集，等待手机领取');
  expect(await page.getByTestId('collect-live').textContent()).toContain('采集中（等待手机领取）');
  expect(await page.getByTestId('pdd-status').getAttribute('data-status')).toBe('collecting');
  expect(await page.getByTestId('collect-start').isDisabled()).toBe(true);
  expect(((await api.get(`/api/pdd/products/${A_PDD}`)).body as { collect_status: string }).collect_status).toBe(
    'collecting',
  );
});

test('the mapping dialog shows the collected PDD rows, suggests the exact text and maps on choice', async () => {
  await openProduct(C);
  expect(await page.getByTestId('mapping-open').isDisabled()).toBe(false);
  await page.getByTestId('mapping-open').click();
  const dialog = page.getByTestId('mapping-dialog');
  await dialog.waitFor();
  await waitForRows('mapping-shopee-row', 'data-sku-id', ['32000000031', '32000000032']);
  expect(await dialog.getByTestId('mapping-pdd-row').count()).toBe(3);
  // Nothing is suggested until a Shopee SKU is chosen, and nothing is mapped by itself.
  expect(await dialog.locator('[data-testid="mapping-pdd-row"][data-suggested="1"]').count()).toBe(0);
  await dialog.locator('[data-testid="mapping-shopee-row"][data-sku-id="32000000031"]').click();
  const suggested = dialog.locator('[data-testid="mapping-pdd-row"][data-suggested="1"]');
  await suggested.waitFor();
  expect(await suggested.count()).toBe(1);
  expect(await suggested.textContent()).toContain('黑色');
  expect(await suggested.textContent()).toContain('¥59.90');
  expect(await suggested.getByTestId('mapping-choose').textContent()).toBe('选这个（文字一致）');
  // The out-of-stock row says so.
  expect(await dialog.getByTestId('mapping-pdd').textContent()).toContain('缺货');

  await suggested.getByTestId('mapping-choose').click();
  await suggested.getByText('已映射').waitFor();
  expect(await dialog.locator('[data-testid="mapping-shopee-row"][data-sku-id="32000000031"]').textContent()).toContain(
    '→ 黑色 / M',
  );

  const shot = path.join(shotsDir, 'mapping-dialog.png');
  await page.screenshot({ path: shot, fullPage: false });
  process.stderr.write(`mapping dialog screenshot: ${shot}\n`);

  await dialog.getByTestId('mapping-close').click();
  await dialog.waitFor({ state: 'detached' });
  const mapped = (await api.get(`/api/shopee/products/${C}`)).body as {
    skus: Array<{ sku_id: string; mapping: { pdd_options: Record<string, string> } | null }>;
  };
  expect(mapped.skus.map((s) => [s.sku_id, s.mapping?.pdd_options ?? null])).toEqual([
    ['32000000031', { color: '黑色', size: 'M' }],
    ['32000000032', null],
  ]);
});

test('the PDD 商品 page lists both goods with their state and the Shopee products linked to them', async () => {
  await page.getByTestId('nav-pdd').click();
  await page.getByTestId('page-pdd').waitFor();
  // Newest first.
  await waitForRows('pdd-row', 'data-goods-id', [A_PDD, C_PDD]);
  const a = page.locator(`[data-testid="pdd-row"][data-goods-id="${A_PDD}"]`);
  const c = page.locator(`[data-testid="pdd-row"][data-goods-id="${C_PDD}"]`);
  expect(await a.getAttribute('data-state')).toBe('collecting');
  expect(await a.getByTestId('state-badge').textContent()).toBe('采集中');
  expect(await a.getByTestId('pdd-collect').isDisabled()).toBe(true);
  expect(await c.getAttribute('data-state')).toBe('collected');
  expect(await c.textContent()).toContain('PDD 衬衫');
  expect(await c.getByTestId('pdd-collect').textContent()).toBe('重新采集');

  await page.getByTestId('pdd-state').selectOption({ label: '已采集' });
  await waitForRows('pdd-row', 'data-goods-id', [C_PDD]);
});

test('a simplified search finds the traditional Shopee title, and the header counts the matches', async () => {
  await page.getByTestId('nav-products').click();
  await waitForRows('product-row', 'data-goods-id', [A, B, C]);
  expect(await page.getByTestId('products-total').textContent()).toBe('共 3 条');
  await page.getByTestId('products-search').fill('西装外套'); // the export says 西裝外套
  await waitForRows('product-row', 'data-goods-id', [A]);
  expect(await productRow(A).textContent()).toContain('西裝外套 A');
  await page.getByTestId('products-total').getByText('共 1 条').waitFor();
  await page.getByTestId('products-search').fill('');
  await waitForRows('product-row', 'data-goods-id', [A, B, C]);
});

test('a collect that ends while 商品 is open leaves 采集中 there by itself, without a reload', async () => {
  expect(await productRow(A).getAttribute('data-state')).toBe('collecting');
  const before = await admin.db
    .selectFrom('pdd_products')
    .selectAll()
    .where('goods_id', '=', A_PDD)
    .executeTakeFirstOrThrow();
  // what the collect's own end writes: the row is no longer collecting
  await admin.db.updateTable('pdd_products').set({ collect_status: 'failed' }).where('goods_id', '=', A_PDD).execute();
  try {
    await waitInPage<string | null>(
      page,
      `document.querySelector('[data-testid="product-row"][data-goods-id="${A}"]')?.getAttribute('data-state') ?? null`,
      (state) => state === 'failed',
    );
  } finally {
    await admin.db
      .updateTable('pdd_products')
      .set({ collect_status: before.collect_status })
      .where('goods_id', '=', A_PDD)
      .execute();
  }
});

test('the PDD 商品 page opens a goods: options, prices (unknown as 未知), stock, the sales figure, the collects', async () => {
  // A later collect read one more colour whose price could not be read, and the sales figure.
  const data = {
    ...skusJson(C_PDD, [
      { color: '黑色', size: 'M', price_cent: 5990 },
      { color: '黑色', size: 'L', price_cent: 5990 },
      { color: '白色', size: 'M', price_cent: 6290, available: false },
      { color: '红色', size: 'M', price_cent: null },
    ]),
    metrics: { sales_text: '已拼10万+件' },
  };
  await admin.db
    .updateTable('pdd_products')
    .set({ skus_json: JSON.stringify(data) })
    .where('goods_id', '=', C_PDD)
    .execute();

  await page.getByTestId('nav-pdd').click();
  await waitForRows('pdd-row', 'data-goods-id', [A_PDD, C_PDD]);
  expect(await page.getByTestId('pdd-total').textContent()).toBe('共 2 条');
  await page.locator(`[data-testid="pdd-row"][data-goods-id="${C_PDD}"]`).getByTestId('pdd-open').click();
  await waitForHash(page, `#/pdd/${C_PDD}`);
  await page.getByTestId('page-pdd-goods').waitFor();
  expect(await page.getByTestId('pdd-goods-title').textContent()).toBe('PDD 衬衫');
  expect(await page.getByTestId('pdd-goods-sales').textContent()).toContain('已拼10万+件');
  await waitForRows('pdd-goods-sku', 'data-available', ['1', '1', '0', '1']);
  const rows = page.getByTestId('pdd-goods-sku');
  expect(await page.getByTestId('pdd-goods-skus').locator('th').allTextContents()).toEqual([
    '颜色分类',
    '尺码',
    '价格',
    '库存',
  ]);
  expect(await rows.nth(0).getByTestId('pdd-goods-sku-price').textContent()).toContain('¥59.90');
  expect(await rows.nth(2).getByTestId('pdd-goods-sku-price').textContent()).toContain('¥62.90');
  expect(await rows.nth(2).getByTestId('pdd-goods-sku-stock').textContent()).toBe('缺货');
  expect(await rows.nth(3).getByTestId('pdd-goods-sku-price').textContent()).toContain('未知');
  expect(await rows.nth(3).getByTestId('pdd-goods-sku-price').textContent()).not.toContain('¥0');
  // the first row's price was read (实测), the others carried over (推测价格): the note explains them
  expect(await rows.nth(1).getByTestId('price-inferred').textContent()).toBe('推测价格');
  expect(await rows.nth(0).getByTestId('price-inferred').count()).toBe(0);
  expect(await page.getByTestId('price-note').textContent()).toContain('只有标「实测」的行是选中该规格读到的价格');
  // C was linked and "collected" outside the UI: no collect run yet.
  expect(await page.getByTestId('pdd-goods-collects').textContent()).toContain('还没有采集过');
  await page.screenshot({ path: path.join(shotsDir, 'pdd-goods.png'), fullPage: true });

  // a collect where no row's price was read on its own: every row 推测价格, nothing to tell apart, no note
  await admin.db
    .updateTable('pdd_products')
    .set({
      skus_json: JSON.stringify({ ...data, skus: data.skus.map((s) => ({ ...s, price_observed_at: {} })) }),
    })
    .where('goods_id', '=', C_PDD)
    .execute();
  await page.reload();
  await waitForRows('pdd-goods-sku', 'data-available', ['1', '1', '0', '1']);
  expect(await rows.nth(0).getByTestId('pdd-goods-sku-price').textContent()).toContain('推测价格');
  expect(await page.getByTestId('price-note').count()).toBe(0);
  await admin.db
    .updateTable('pdd_products')
    .set({ skus_json: JSON.stringify(data) })
    .where('goods_id', '=', C_PDD)
    .execute();

  // A's goods has the run started from the UI earlier, still waiting for a phone.
  await page.goto(`${admin.url}/#/pdd/${A_PDD}`);
  await page.getByTestId('page-pdd-goods').waitFor();
  await waitForRows('pdd-goods-collect-run', 'data-status', ['queued']);
  expect(await page.getByTestId('pdd-goods-collect-run').textContent()).toContain('等待手机领取');
});

test('the mapping dialog marks 缺货 and 价格未知, and mapping to such an option says so', async () => {
  // a SKU written in traditional characters (紅色), as Shopee Taiwan writes it
  expect(
    (
      await api.post(`/api/shopee/products/${C}/skus`, {
        sku_id: '32000000033',
        color: '紅色',
        size: 'M',
        advice: null,
      })
    ).status,
  ).toBe(201);
  await openProduct(C);
  await page.getByTestId('mapping-open').click();
  const dialog = page.getByTestId('mapping-dialog');
  await dialog.waitFor();
  await waitInPage<number>(page, `document.querySelectorAll('[data-testid="mapping-pdd-row"]').length`, (n) => n === 4);
  const white = dialog.getByTestId('mapping-pdd-row').nth(2);
  const red = dialog.getByTestId('mapping-pdd-row').nth(3);
  expect(await white.getByTestId('option-warning').allTextContents()).toEqual(['缺货']);
  expect(await red.getByTestId('option-warning').allTextContents()).toEqual(['价格未知']);
  // the mapping board marks a price carried over from another combination (推测价格), not a read or an unknown one
  const rowsOnBoard = dialog.getByTestId('mapping-pdd-row');
  expect(await rowsOnBoard.nth(0).getByTestId('price-inferred').count()).toBe(0);
  expect(await rowsOnBoard.nth(1).getByTestId('price-inferred').textContent()).toBe('推测价格');
  expect(await red.getByTestId('price-inferred').count()).toBe(0);
  await dialog.locator('[data-testid="mapping-shopee-row"][data-sku-id="32000000032"]').click();
  await red.getByTestId('mapping-choose').click();
  await dialog.getByTestId('mapping-warning').waitFor();
  expect(await dialog.getByTestId('mapping-warning').textContent()).toContain('价格未知');
  await red.getByText('已映射').waitFor();
  // 文字一致 does not care about 简繁: 紅色 / M is the same text as the PDD row 红色 / M
  await dialog.locator('[data-testid="mapping-shopee-row"][data-sku-id="32000000033"]').click();
  await dialog.locator('[data-testid="mapping-pdd-row"][data-suggested="1"]').waitFor();
  expect(await dialog.locator('[data-testid="mapping-pdd-row"][data-suggested="1"]').count()).toBe(1);
  expect(await red.getAttribute('data-suggested')).toBe('1');
  expect(await red.getByTestId('mapping-choose').textContent()).toBe('选这个（文字一致）');
  await dialog.getByTestId('mapping-close').click();
  await dialog.waitFor({ state: 'detached' });
});

test('解除链接 asks first, then the product is 未填链接 again while its goods and mappings are kept', async () => {
  await page.getByTestId('pdd-unlink').click();
  await page.getByTestId('unlink-confirm').waitFor();
  await page.getByTestId('unlink-confirm-confirm').click();
  await page.getByTestId('detail-message').getByText('已解除拼多多链接').waitFor();
  expect(await page.getByTestId('pdd-link-card').textContent()).toContain('还没有填写拼多多链接');
  const product = (await api.get(`/api/shopee/products/${C}`)).body as { state: string; pdd_goods_id: string | null };
  expect(product).toMatchObject({ state: 'unlinked', pdd_goods_id: null });
  expect(
    await admin.db
      .selectFrom('sku_mappings')
      .select('shopee_sku_id')
      .where('pdd_goods_id', '=', C_PDD)
      .orderBy('shopee_sku_id')
      .execute(),
  ).toEqual([{ shopee_sku_id: '32000000031' }, { shopee_sku_id: '32000000032' }]);
});

test("the task page's 工作流 link opens the Temporal UI this admin was started with", async () => {
  const draft = await api.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${C_PDD}`,
    // by the dimension names the goods was collected with (a purchase names what the panel shows)
    pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
    quantity: 1,
    max_total_price_cent: 9000,
  });
  expect(draft.status).toBe(201);
  const { task_id, version } = draft.body as { task_id: string; version: number };
  expect((await api.post('/api/tasks/start', { tasks: [{ task_id, version }] })).status).toBe(200);

  await page.goto(`${admin.url}/#/tasks/${task_id}`);
  const link = page.locator('[data-testid="workflow-link"][href]');
  // the workflow id is for engineers: it sits folded under 技术详情
  await link.waitFor({ state: 'attached' });
  expect(await link.isVisible()).toBe(false);
  await page.getByTestId('workflow-detail').getByText('技术详情').click();
  await link.waitFor();
  const href = (await link.getAttribute('href')) ?? '';
  const uiUrl = sharedTemporal().uiUrl;
  expect(uiUrl).not.toBeNull();
  expect(href.startsWith(`${uiUrl}/namespaces/${admin.namespace}/workflows/purchase%2F${task_id}%2F`)).toBe(true);
  expect(href).not.toContain(':8233/');

  // Followed, it lands on that Temporal UI, which answers.
  const temporalPage = await rig.context.newPage();
  try {
    const res = await temporalPage.goto(href);
    expect(res?.status()).toBe(200);
    expect(new URL(temporalPage.url()).origin).toBe(new URL(uiUrl!).origin);
  } finally {
    await temporalPage.close();
  }
});

test('a cap from a 推测价格 says so: beside the cap on the form, and as a 草稿提示 on the draft', async () => {
  const url = `https://mobile.yangkeduo.com/goods.html?goods_id=${C_PDD}`;
  await page.goto(`${admin.url}/#/tasks/new`);
  await page.getByTestId('field-url').fill(url);
  const pick = (dimension: string) => page.locator(`[data-testid="option-picker"][data-dimension="${dimension}"]`);
  await pick('颜色分类').selectOption('黑色');
  await pick('尺码').selectOption('M');
  await page.getByTestId('option-picked').waitFor();
  expect(await page.getByTestId('cap-inferred').count()).toBe(0);
  // 黑色 / L was priced while 黑色 / M was selected
  await pick('尺码').selectOption('L');
  expect(await page.getByTestId('cap-inferred').textContent()).toContain('推测价格');

  const draft = await api.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: url,
    pdd_options: { 颜色分类: '黑色', 尺码: 'L' },
    quantity: 1,
    max_total_price_cent: 9000,
  });
  expect(draft.status).toBe(201);
  await page.goto(`${admin.url}/#/tasks/${(draft.body as { task_id: string }).task_id}`);
  const warning = page.locator('[data-testid="draft-warning"][data-code="CAP_FROM_INFERRED_PRICE"]');
  await warning.waitFor();
  expect(await warning.textContent()).toContain('推测价格');
});

test('a collect’s 已开始采集 notice goes once the goods is 已采集; 删除 a PDD goods asks in the page and says what goes with it', async () => {
  // A's earlier collect never found a phone; it is ended and started again from the product page
  await (await admin.temporal.client()).workflow.getHandle(`collect/${A_PDD}`).terminate('no phone in this test');
  await admin.db.updateTable('pdd_products').set({ collect_status: 'failed' }).where('goods_id', '=', A_PDD).execute();
  await openProduct(A);
  await page.getByTestId('collect-start').click();
  await page.getByTestId('detail-message').getByText('已开始采集，等待手机领取').waitFor();
  await page.getByTestId('collect-live').waitFor();
  // what the collect activity stores when the phone is done
  await admin.db
    .updateTable('pdd_products')
    .set({
      collect_status: 'collected',
      collected_at: '2026-08-07T09:00:00Z',
      skus_json: JSON.stringify(skusJson(A_PDD, [{ color: '黑色', size: 'M', price_cent: 5990 }])),
    })
    .where('goods_id', '=', A_PDD)
    .execute();
  await page.locator('[data-testid="pdd-status"][data-status="collected"]').waitFor();
  await page.getByTestId('detail-message').waitFor({ state: 'detached' });

  // 删除 on 拼多多商品: the page's own confirmation, never the browser's
  const nativeDialogs: string[] = [];
  page.on('dialog', (d) => {
    nativeDialogs.push(d.message());
    void d.dismiss();
  });
  await page.getByTestId('nav-pdd').click();
  const row = page.locator(`[data-testid="pdd-row"][data-goods-id="${A_PDD}"]`);
  await row.getByTestId('pdd-delete').click();
  const confirm = page.getByTestId('pdd-delete-dialog');
  await confirm.waitFor();
  const text = (await confirm.textContent()) ?? '';
  expect(text).toContain('关联');
  expect(text).toContain('采集到的规格、价格会一起移除');
  // 返回 deletes nothing
  await page.getByTestId('pdd-delete-dialog-back').click();
  await confirm.waitFor({ state: 'detached' });
  expect(await row.count()).toBe(1);
  await row.getByTestId('pdd-delete').click();
  await page.getByTestId('pdd-delete-dialog-confirm').click();
  await row.waitFor({ state: 'detached' });
  expect(nativeDialogs).toEqual([]);
  expect(((await api.get(`/api/shopee/products/${A}`)).body as { state: string }).state).toBe('unlinked');
});
