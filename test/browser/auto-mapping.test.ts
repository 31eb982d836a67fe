import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startBrowserRig, waitForHash, waitForText, type BrowserRig } from '../browser';
import { skusJson, upload } from '../catalog/helpers';
import { buildWorkbook } from '../catalog/workbook';
import { TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * After a collect the product page leads to the mapping: 按文字一致全部映射 is the primary button,
 * one click (after its preview) maps every SKU whose spec reads as one collected combination, and
 * the SKU table then shows each mapped SKU's PDD price, 实测 or 推测价格. No phone is attached:
 * the collect's result is stored as the collect activity stores it.
 */

const GOODS = '33000000001';
const PDD = '712345678901';
const SKU_PINK_S = '34000000011';
const SKU_PINK_M = '34000000012';
const SKU_RED_S = '34000000013';
const SKU_WHITE = '34000000014';

let rig: BrowserRig;
let admin: TestAdmin;
let api: OperatorClient;
let page: Page;
let shotsDir: string;

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page, shotsDir } = rig);
  const header = ['商品ID', '商品名稱', '商品規格ID', '商品規格'];
  const row = (skuId: string, spec: string) => ({
    商品ID: GOODS,
    商品名稱: '純棉短袖T恤',
    商品規格ID: skuId,
    商品規格: spec,
  });
  const imported = await upload(
    api,
    await buildWorkbook(header, [
      { 商品ID: GOODS, 商品名稱: '純棉短袖T恤', 商品規格ID: '-' },
      row(SKU_PINK_S, '粉紅,S'),
      row(SKU_PINK_M, '粉紅,M'),
      row(SKU_RED_S, '紅,S'),
      row(SKU_WHITE, '白色,M'),
    ]),
  );
  expect(imported.status).toBe(200);
  const linked = await api.put(`/api/shopee/products/${GOODS}/pdd-link`, {
    url: `https://mobile.yangkeduo.com/goods.html?goods_id=${PDD}`,
  });
  expect(linked.status).toBe(200);
});

afterAll(async () => {
  await rig?.close();
});

const skuRow = (skuId: string): Locator => page.locator(`[data-testid="sku-row"][data-sku-id="${skuId}"]`);
const isPrimary = async (testid: string): Promise<boolean> =>
  ((await page.getByTestId(testid).getAttribute('class')) ?? '').split(' ').includes('btn-primary');

test('collect → 按文字一致全部映射 is the next step → one click maps the matching SKUs → their PDD prices show', async () => {
  await page.goto(`${admin.url}/#/products/${GOODS}`);
  await waitForHash(page, '#/login');
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('product-title').waitFor();

  // Before any collect the collect is the next step, and nothing can be mapped.
  expect(await isPrimary('collect-start')).toBe(true);
  expect(await page.getByTestId('auto-mapping-open').count()).toBe(0);
  await page.getByTestId('collect-start').click();
  await page.getByTestId('collect-live').waitFor();
  // what the collect activity stores when the phone is done: 粉红 S read, 粉红 M carried over
  await admin.db
    .updateTable('pdd_products')
    .set({
      collect_status: 'collected',
      collected_at: '2026-08-07T09:00:00Z',
      skus_json: JSON.stringify(
        skusJson(PDD, [
          { color: '粉红', size: 'S', price_cent: 1090 },
          { color: '粉红', size: 'M', price_cent: 1090 },
          { color: '红', size: 'S', price_cent: 990 },
          { color: '红色系', size: 'S', price_cent: 1190 },
        ]),
      ),
    })
    .where('goods_id', '=', PDD)
    .execute();
  await page.locator('[data-testid="pdd-status"][data-status="collected"]').waitFor();

  // Now the mapping leads; 重新采集 steps back.
  await page.getByTestId('auto-mapping-open').waitFor();
  expect(await page.getByTestId('auto-mapping-open').textContent()).toBe('按文字一致全部映射（3）');
  expect(await isPrimary('auto-mapping-open')).toBe(true);
  expect(await isPrimary('mapping-open')).toBe(false);
  expect(await page.getByTestId('collect-start').textContent()).toBe('重新采集');
  expect(await isPrimary('collect-start')).toBe(false);

  // The preview: what will be mapped, to what, at which price; what is left alone and why.
  await page.getByTestId('auto-mapping-open').click();
  const dialog = page.getByTestId('auto-mapping-dialog');
  await dialog.getByTestId('auto-mapping-row').first().waitFor();
  expect(await dialog.getByTestId('auto-mapping-row').count()).toBe(3);
  const pinkM = dialog.locator(`[data-testid="auto-mapping-row"][data-sku-id="${SKU_PINK_M}"]`);
  expect(await pinkM.textContent()).toContain('粉紅,M');
  expect(await pinkM.textContent()).toContain('粉红 / M');
  expect(await pinkM.textContent()).toContain('¥10.90');
  expect(await pinkM.getByTestId('price-inferred').count()).toBe(1);
  const white = dialog.locator(`[data-testid="auto-mapping-skipped"][data-sku-id="${SKU_WHITE}"]`);
  expect(await white.getAttribute('data-reason')).toBe('NO_MATCH');
  expect(await white.textContent()).toContain('没有文字一致的拼多多规格');
  expect(await dialog.getByTestId('auto-mapping-confirm').textContent()).toBe('确认映射 3 个 SKU');
  await page.screenshot({ path: path.join(shotsDir, 'auto-mapping-preview.png'), fullPage: true });

  await dialog.getByTestId('auto-mapping-confirm').click();
  await dialog.waitFor({ state: 'detached' });
  await waitForText(page, 'detail-message', '已按文字一致映射 3 个 SKU');

  // The SKU table: each mapped SKU with its PDD price, 实测 or 推测价格; the unmatched one waits.
  await skuRow(SKU_PINK_S).getByTestId('sku-pdd-price').waitFor();
  expect(await skuRow(SKU_PINK_S).getByTestId('sku-pdd-price').textContent()).toBe(' ¥10.90 实测');
  const inferred = skuRow(SKU_PINK_M).getByTestId('sku-pdd-price');
  expect(await inferred.textContent()).toContain('¥10.90');
  expect(await inferred.getByTestId('price-inferred').textContent()).toBe('推测价格');
  expect(await skuRow(SKU_RED_S).getByTestId('sku-pdd-price').textContent()).toContain('¥9.90');
  expect(await skuRow(SKU_WHITE).textContent()).toContain('待匹配');
  expect(await skuRow(SKU_WHITE).getByTestId('sku-pdd-price').count()).toBe(0);

  // Nothing more to map by text: 规格映射 (for the rest, by hand) is the next step.
  expect(await page.getByTestId('auto-mapping-open').count()).toBe(0);
  expect(await isPrimary('mapping-open')).toBe(true);
  await page.screenshot({ path: path.join(shotsDir, 'auto-mapping-done.png'), fullPage: true });
});
