import path from 'node:path';
import type { Page } from 'playwright-core';
import { startBrowserRig, waitForHash, waitInPage, type BrowserRig } from '../browser';
import { guideExampleWorkbooks } from '../catalog/guide-example';
import { buildWorkbook } from '../catalog/workbook';
import { TEST_ADMIN_PASSWORD, type TestAdmin } from '../harness';

/**
 * 导入虾皮商品 as docs/operator-guide.md §1 shows it: a workbook typed from the guide's example
 * (only SKU rows, exactly the columns it names) imports its products; a workbook of bad rows
 * says plainly that nothing was imported, and why. Needs ui/dist (see test/browser/catalog.test.ts).
 */

let admin: TestAdmin;
let page: Page;
let shotsDir: string;
let rig: BrowserRig;
beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, page, shotsDir } = rig);
});

afterAll(async () => {
  await rig?.close();
});

async function importFile(buffer: Buffer): Promise<void> {
  await page.getByTestId('import-file').setInputFiles({
    name: 'export.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  await page.getByTestId('import-start').click();
  await page.getByTestId('import-result').waitFor();
}

test('the guide’s example without product rows imports its products', async () => {
  await page.goto(`${admin.url}/#/products`);
  await waitForHash(page, '#/login');
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await waitForHash(page, '#/products');

  const [skuRowsOnly] = await guideExampleWorkbooks();
  await importFile(skuRowsOnly!);
  expect(await page.getByTestId('import-result').getAttribute('data-imported')).toBe('1');
  expect(await page.getByTestId('import-products').textContent()).toBe('2');
  expect(await page.getByTestId('import-skus').textContent()).toBe('3');
  expect(await page.getByTestId('import-nothing').count()).toBe(0);
  expect(await page.getByTestId('import-to-complete').count()).toBe(0);
  const rows = `Array.from(document.querySelectorAll('[data-testid="product-row"]')).map((e) => e.textContent).join('|')`;
  const seen = await waitInPage<string>(page, rows, (t) => t.includes('西裝外套') && t.includes('襯衫'));
  expect(seen).toContain('24100000001');
});

test('a workbook of only bad rows says 没有导入任何商品 with the first reasons, no success wording', async () => {
  const bad = await buildWorkbook(
    ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
    [
      { 商品ID: 'ABC', 商品名稱: '壞ID', 商品規格ID: '88300000011', 商品規格: '黑色,M' },
      { 商品ID: '24300000002', 商品名稱: '', 商品規格ID: '88300000021', 商品規格: '黑色,M' },
      { 商品ID: '24300000003', 商品名稱: '重複', 商品規格ID: 'x', 商品規格: '黑色,M' },
      { 商品ID: '', 商品名稱: '沒有商品ID', 商品規格ID: '88300000031', 商品規格: '黑色,M' },
    ],
  );
  await importFile(bad);
  const result = page.getByTestId('import-result');
  await waitInPage<string | null>(
    page,
    `document.querySelector('[data-testid="import-result"]').getAttribute('data-imported')`,
    (v) => v === '0',
  );
  const text = (await result.textContent()) ?? '';
  expect(text).toContain('没有导入任何商品');
  expect(text).not.toContain('导入完成');
  expect(text).not.toContain('已导入');
  const reasons = await page.getByTestId('import-first-reasons').locator('li').allTextContents();
  expect(reasons).toEqual([
    '第 2 行：商品ID「ABC」不是数字',
    '第 3 行：商品 24300000002 的商品名稱为空，表里也没有它的商品行（商品規格ID 为 -），此 SKU 未导入',
    '第 4 行：商品規格ID「x」既不是数字也不是 -',
  ]);
  expect(await page.getByTestId('import-failed-row').count()).toBe(4);
  const shot = path.join(shotsDir, 'import-nothing.png');
  await page.getByTestId('import-panel').screenshot({ path: shot });
  console.log(`nothing-imported screenshot: ${shot}`);
});
