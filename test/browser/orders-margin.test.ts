import type { Locator, Page } from 'playwright-core';
import { startBrowserRig, type BrowserRig } from '../browser';
import { skusJson, upload } from '../catalog/helpers';
import { buildWorkbook } from '../catalog/workbook';
import { TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';
import { toUtcTimestamp } from '../../domain/time';

/**
 * 订单 with 设置 → 最低毛利率 in a real browser: a line below the minimum is not drafted and its
 * result shows the figures; 仍然生成 drafts that one line after a confirm naming them; a re-collect
 * above a draft's cap flags its line (docs/operator-guide.md §5).
 */
const G = '44400000011';
const PDD = '990011';

let rig: BrowserRig;
let admin: TestAdmin;
let page: Page;
let api: OperatorClient;

const row = (sybId: string): Locator => page.locator(`[data-testid="order-row"][data-syb-id="${sybId}"]`);
const collect = (priceCent: number) => {
  const at = toUtcTimestamp(new Date(Date.now() + 60_000));
  return admin.db
    .updateTable('pdd_products')
    .set({
      collect_status: 'collected',
      skus_json: JSON.stringify(skusJson(PDD, [{ color: '黑色', size: 'M', price_cent: priceCent }])),
      collected_at: at,
      updated_at: at,
    })
    .where('goods_id', '=', PDD)
    .execute();
};
const line = (sybId: string, priceTwdCent: number) => {
  const now = toUtcTimestamp(new Date());
  return admin.db
    .insertInto('syb_orders')
    .values({
      syb_id: sybId,
      syb_order_no: `TW-${sybId}`,
      title: '外套',
      product_spec: '黑色,M',
      shopee_goods_id: G,
      shopee_sku_id: '9101',
      quantity: 1,
      price_twd_cent: priceTwdCent,
      image_url: null,
      syb_data: '{}',
      created_at: now,
      first_synced_at: now,
      updated_at: now,
    })
    .execute();
};

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
  await page.setViewportSize({ width: 1366, height: 768 });
  const imported = await upload(
    api,
    await buildWorkbook(
      ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
      [
        { 商品ID: G, 商品名稱: '外套', 商品規格ID: '-' },
        { 商品ID: G, 商品名稱: '外套', 商品規格ID: '9101', 商品規格: '黑色,M' },
      ],
    ),
  );
  expect(imported.status).toBe(200);
  const url = `https://mobile.yangkeduo.com/goods.html?goods_id=${PDD}`;
  expect((await api.put(`/api/shopee/products/${G}/pdd-link`, { url })).status).toBe(200);
  await collect(1288);
  expect((await api.put('/api/mappings/9101', { pdd_options: { color: '黑色', size: 'M' } })).status).toBe(200);
  expect(
    (await api.put('/api/settings', { 'money.twd_to_cny_rate_ppm': 225_000, 'money.min_margin_bp': 2500 })).status,
  ).toBe(200);
  await line('MG-1', 10_000); // ¥22.50 against a cap of ¥17.88: 20.53%
  await line('MG-2', 20_000); // ¥45.00: 60.27%

  await page.goto(`${admin.url}/#/orders`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('page-orders').waitFor();
  await row('MG-1').waitFor();
}, 180_000);

afterAll(async () => {
  await rig?.close();
});

test('a line below the minimum margin shows its figures; 仍然生成 drafts it after a confirm', async () => {
  for (const id of ['MG-1', 'MG-2']) await row(id).getByTestId('order-select').check();
  await page.getByTestId('draft-create').click();
  const results = page.getByTestId('draft-results');
  await results.waitFor();
  const result = (sybId: string) => results.locator(`[data-testid="draft-result"][data-syb-id="${sybId}"]`);
  expect(await result('MG-1').getAttribute('data-code')).toBe('MARGIN_TOO_LOW');
  expect(await result('MG-1').getByTestId('draft-result-refusal').textContent()).toContain('低于最低毛利率 25.00%');
  expect(await result('MG-1').getByTestId('draft-result-margin').textContent()).toContain('毛利 ¥4.62（20.53%');
  await result('MG-2').getByTestId('draft-result-task').waitFor();

  await result('MG-1').getByTestId('draft-low-margin').click();
  const confirm = page.getByTestId('low-margin-confirm');
  await confirm.waitFor();
  expect(await confirm.textContent()).toContain('成本（最高总价） ¥17.88');
  await page.getByTestId('low-margin-confirm-confirm').click();
  await result('MG-1').getByTestId('draft-result-task').waitFor();
  expect(await admin.db.selectFrom('tasks').select('task_id').where('syb_id', '=', 'MG-1').execute()).toHaveLength(1);
});

test('a re-collect above the cap flags the draft on its order line', async () => {
  await collect(4000);
  await page.getByTestId('order-refresh').click();
  const flag = row('MG-2').getByTestId('order-price-flag');
  await flag.waitFor();
  expect(await flag.getAttribute('data-code')).toBe('MARGIN_TOO_LOW');
  expect(await flag.textContent()).toBe('涨价：毛利不足');
});
