import type { Locator, Page } from 'playwright-core';
import { syncSybOrders } from '../../admin/syb/sync';
import { startBrowserRig, waitInPage, type BrowserRig } from '../browser';
import { skusJson, upload } from '../catalog/helpers';
import { buildWorkbook } from '../catalog/workbook';
import { TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';
import { shipment, startSim, taipeiAt } from '../syb/helpers';

/**
 * 订单's checks in a real browser at 1366×768 (docs/syb-protocol.md "Lines that cannot be used",
 * docs/api.md §9): 可采购 only for a line mapped to an available, priced PDD combination; a SKU
 * whose spec differs needs the operator's 仍然使用 and then shows 规格不一致; a refused draft
 * links to the page that fixes it (the import, for a product never imported); a line SYB sent
 * unusable shows 数据异常 with its problem.
 */
const G = '44400000001'; // imported, linked, collected, 黑色,M mapped
const GX = '44400000009'; // never imported
const id = (n: number) => `SH-T-0001-L${n}`;

let rig: BrowserRig;
let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
let sim: Awaited<ReturnType<typeof startSim>>;

const row = (sybId: string): Locator => page.locator(`[data-testid="order-row"][data-syb-id="${sybId}"]`);

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
  await page.setViewportSize({ width: 1366, height: 768 });
  sim = await startSim([
    shipment(1, taipeiAt(0, '08:00:00'), [
      { productId: G, spec: '黑色,M' }, // L1 可采购
      { productId: G, spec: '綠色,M' }, // L2 no such SKU: set by hand to 白色,L → 规格不一致
      { productId: GX, spec: '紅,S' }, // L3 product never imported
      { productId: G, spec: '黑色,M', quantity: 11 }, // L4 over the max quantity
    ]),
  ]);
  await fetch(`${sim.url}/control/raw-shipments`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      shipments: [
        {
          id: 'RAW-1',
          code: 'TW-RAW-1',
          created: taipeiAt(0, '07:00:00'),
          details: [{ id: 'RAW-1-1', productId: G, title: '壞資料', spec: '黑色,M', quantity: 0, price: '免费' }],
        },
      ],
    }),
  });
  expect((await api.put('/api/syb/settings', { url: sim.url, ...(await sim.control.credentials()) })).status).toBe(200);
  const imported = await upload(
    api,
    await buildWorkbook(
      ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
      [
        { 商品ID: G, 商品名稱: '外套', 商品規格ID: '-' },
        { 商品ID: G, 商品名稱: '外套', 商品規格ID: '9001', 商品規格: '黑色,M' },
        { 商品ID: G, 商品名稱: '外套', 商品規格ID: '9002', 商品規格: '白色,L' },
      ],
    ),
  );
  expect(imported.status).toBe(200);
  expect(
    (
      await api.put(`/api/shopee/products/${G}/pdd-link`, {
        url: 'https://mobile.yangkeduo.com/goods.html?goods_id=990001',
      })
    ).status,
  ).toBe(200);
  await admin.db
    .updateTable('pdd_products')
    .set({
      collect_status: 'collected',
      skus_json: JSON.stringify(
        skusJson('990001', [
          { color: '黑色', size: 'M', price_cent: 1288 },
          { color: '白色', size: 'L', price_cent: 1390 },
        ]),
      ),
      collected_at: '2026-08-07T08:00:00Z',
    })
    .where('goods_id', '=', '990001')
    .execute();
  expect((await api.put('/api/mappings/9001', { pdd_options: { color: '黑色', size: 'M' } })).status).toBe(200);
  await syncSybOrders(admin.syb);

  await page.goto(`${admin.url}/#/orders`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('page-orders').waitFor();
  await row(id(1)).waitFor();
}, 180_000);

afterAll(async () => {
  await sim?.close();
  await rig?.close();
});

test('可采购 only for the line mapped to an available, priced combination; the SKU column shows the spec text', async () => {
  expect(await row(id(1)).getAttribute('data-match')).toBe('ready');
  expect(await row(id(1)).getByTestId('order-match').textContent()).toBe('可采购');
  expect(await row(id(1)).getByTestId('order-sku-spec').textContent()).toBe('黑色,M');
  // 綠色,M has no SKU of its own yet
  expect(await row(id(2)).getAttribute('data-match')).toBe('unmatched');
  await page.getByTestId('order-filter-match').selectOption({ label: '可采购' });
  await waitInPage<string>(
    page,
    `Array.from(document.querySelectorAll('[data-testid="order-row"]')).map((e) => e.getAttribute('data-syb-id')).join(',')`,
    (ids) => ids === [id(4), id(1)].join(','),
  );
  await page.getByTestId('order-filter-match').selectOption({ label: '全部匹配状态' });
  await row(id(2)).waitFor();
});

test('a SKU whose spec differs is set only after 仍然使用, and the line then shows 规格不一致', async () => {
  const r = row(id(2));
  await r.getByTestId('order-sku-edit').click();
  await r.getByTestId('order-sku-select').selectOption('9002');
  await r.getByTestId('order-sku-save').click();
  const ask = r.getByTestId('order-sku-mismatch');
  await ask.waitFor();
  expect(await ask.textContent()).toContain('綠色,M');
  expect(await ask.textContent()).toContain('白色,L');
  // nothing written before the confirmation
  expect(
    (await admin.db.selectFrom('syb_orders').select('shopee_sku_id').where('syb_id', '=', id(2)).executeTakeFirst())
      ?.shopee_sku_id,
  ).toBeNull();
  await r.getByTestId('order-sku-mismatch-confirm').click();
  await r.getByTestId('order-spec-mismatch').waitFor();
  expect(await r.getByTestId('order-spec-mismatch').textContent()).toBe('规格不一致');
  expect(await r.getByTestId('order-sku-id').textContent()).toBe('9002');
  expect(await r.getByTestId('order-sku-spec').textContent()).toBe('白色,L');
});

test('数据异常 lines say what is wrong; a refused draft links to its fix, the import for a product never imported', async () => {
  const bad = row('RAW-1-1');
  expect(await bad.getAttribute('data-match')).toBe('invalid');
  expect(await bad.getByTestId('order-match').textContent()).toBe('数据异常');
  expect(await bad.getByTestId('order-data-problem').textContent()).toContain('数量无效');
  // 「去…」 on a product never imported leads to the import, not a dead end
  expect(await row(id(3)).getByTestId('order-sku-add').getAttribute('href')).toBe('#/products');

  for (const sybId of [id(3), id(4), 'RAW-1-1']) await row(sybId).getByTestId('order-select').check();
  await page.getByTestId('draft-create').click();
  const results = page.getByTestId('draft-results');
  await results.waitFor();
  const result = (sybId: string) => results.locator(`[data-testid="draft-result"][data-syb-id="${sybId}"]`);
  expect(await result('RAW-1-1').getAttribute('data-code')).toBe('INVALID_LINE');
  expect(await result('RAW-1-1').getByTestId('draft-result-refusal').textContent()).toContain('数量无效');
  expect(await result(id(4)).getByTestId('draft-result-refusal').textContent()).toContain('数量 11 超过上限 10');
  expect(await result(id(4)).getByTestId('draft-result-link').getAttribute('href')).toBe('#/settings');
  const importLink = result(id(3)).getByTestId('draft-result-link');
  expect(await importLink.textContent()).toBe('去导入虾皮商品');
  await importLink.click();
  await page.getByTestId('page-products').waitFor();
  await page.getByTestId('import-panel').waitFor();
  expect(await admin.db.selectFrom('tasks').select('task_id').execute()).toEqual([]);
});
