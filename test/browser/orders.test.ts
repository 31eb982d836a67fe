import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { defaultShipments, DEMO_PRODUCTS } from '../../sim/syb/data';
import { demoSkus } from '../../sim/syb/demo-export';
import { startSybSim, type SybSim } from '../../sim/syb/server';
import { startBrowserRig, waitInPage, type BrowserRig } from '../browser';
import { importDemoExportInUi, linkAndCollect, startDemoPhone, type DemoPhone } from './demo';
import { SimControl } from '../syb/helpers';
import { until } from '../device/fixtures';
import { type OperatorClient, type TestAdmin } from '../harness';
import { API_ERROR_CODES } from '../../domain/api-errors';

/**
 * 订单 in a real browser, on the demo data a fresh `npm start` has: the SYB simulator's default
 * orders, the demo Shopee export (`npm run demo:shopee-export`) imported on 商品, the coat linked
 * to the phone simulator's goods, collected by a real device worker and mapped; then 立即同步 →
 * lines 已匹配 / 可采购 → 生成采购草稿 (试运行) → 开始采购 → 试运行通过 (ui/dist must be built: `npm test`
 * does it; by hand `npx vite build --config ui/vite.config.ts`). The tests share one page, in order.
 */

const shipments = defaultShipments();
const [coat, tee] = DEMO_PRODUCTS;
/** syb_id of each demo line, by what it is */
const line = {
  coatBlackM: shipments[0]!.details[0]!.id,
  teeRedS: shipments[0]!.details[1]!.id,
  cup: shipments[1]!.details[0]!.id,
  shoes: shipments[2]!.details[0]!.id,
  coatWhiteS: shipments[2]!.details[1]!.id,
};
const skuOf = (goodsId: string, spec: string): string => {
  const sku = demoSkus().find((s) => s.goodsId === goodsId && s.spec === spec);
  if (!sku) throw new Error(`no demo SKU ${goodsId} ${spec}`);
  return sku.skuId;
};

let rig: BrowserRig;
let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
let shotsDir: string;
let syb: SybSim;
let demo: DemoPhone;
let draftId: string;

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page, shotsDir } = rig);
  syb = await startSybSim({ port: 0, shipments });
  demo = await startDemoPhone(admin, 'sim-orders', 'orders phone');
  // What `npm start` does through the env defaults: the admin's SYB account is the simulator's.
  expect(
    (
      await api.put('/api/syb/settings', {
        url: syb.url,
        username: syb.credentials.username,
        password: syb.credentials.password,
      })
    ).status,
  ).toBe(200);
});

afterAll(async () => {
  await demo?.close();
  await syb?.close();
  await rig?.close();
});

function orderRow(sybId: string): Locator {
  return page.locator(`[data-testid="order-row"][data-syb-id="${sybId}"]`);
}

/** Waits until the order rows carry exactly these ids (newest shipment first); says what it saw if not. */
async function waitForOrderRows(want: string[]): Promise<void> {
  const seen = `Array.from(document.querySelectorAll('[data-testid="order-row"]')).map((e) => e.getAttribute('data-syb-id')).join(',')`;
  // polled from outside the page: the UI's CSP forbids the eval that waitForFunction needs
  try {
    await waitInPage<string>(page, seen, (ids) => ids === want.join(','));
  } catch {
    throw new Error(`order rows: wanted [${want.join(',')}], saw [${await page.evaluate<string>(seen)}]`);
  }
}

async function apiLine(
  sybId: string,
): Promise<{ shopee_sku_id: string | null; match_state: string; task_id: string | null }> {
  const res = await api.get(`/api/syb/orders?q=${encodeURIComponent(sybId)}`);
  const items = (
    res.body as {
      items: Array<{ syb_id: string; shopee_sku_id: string | null; match_state: string; task_id: string | null }>;
    }
  ).items;
  const found = items.find((i) => i.syb_id === sybId);
  if (!found) throw new Error(`no line ${sybId}`);
  return found;
}

test('the demo Shopee export imports on 商品: every demo product and spec', async () => {
  await importDemoExportInUi(page, admin.url, 'demo-shopee-export.xlsx');
  expect(await page.getByTestId('import-products').textContent()).toBe(String(DEMO_PRODUCTS.length));
  expect(await page.getByTestId('import-skus').textContent()).toBe(String(demoSkus().length));
  expect(await page.getByTestId('import-failed-row').count()).toBe(0);
});

test('the coat is linked to its PDD goods, collected by the phone and its black M mapped (set-up through the API)', async () => {
  const collected = await linkAndCollect(api, coat);
  expect(collected).toMatchObject({ collect_status: 'collected', collect_msg: null });
  const blackM = collected.skus_json?.skus.find((s) => Object.values(s.options).join('/') === '黑色/M');
  expect(blackM?.price_cent).toBe(1288);
  expect(
    (await api.put(`/api/mappings/${skuOf(coat.productId, '黑色,M')}`, { pdd_options: blackM!.options })).status,
  ).toBe(200);
});

test('the first sync runs when the account is set: the demo orders are there without a click, each line matched to its imported SKU', async () => {
  await page.getByTestId('nav-orders').click();
  await page.getByTestId('page-orders').waitFor();
  // Newest shipment first; within one shipment the higher line id first.
  await waitForOrderRows([line.coatWhiteS, line.shoes, line.cup, line.teeRedS, line.coatBlackM]);
  await page.locator('[data-testid="sync-panel"][data-running="0"]').waitFor();
  expect(await page.getByTestId('sync-last').textContent()).toContain('5 条明细');
  // 立即同步 reads again from the day of the last sync, and changes no line
  await page.getByTestId('sync-start').click();
  await page.locator('[data-testid="sync-panel"][data-running="0"]').waitFor();
  expect(await page.getByTestId('sync-error').count()).toBe(0);
  await waitForOrderRows([line.coatWhiteS, line.shoes, line.cup, line.teeRedS, line.coatBlackM]);

  // Only the mapped black M can be bought (可采购); the others have their SKU but no mapping yet.
  for (const id of Object.values(line)) {
    const ready = id === line.coatBlackM;
    expect(await orderRow(id).getAttribute('data-match')).toBe(ready ? 'ready' : 'matched');
    expect(await orderRow(id).getByTestId('order-match').textContent()).toBe(ready ? '可采购' : '已匹配');
  }
  const black = orderRow(line.coatBlackM);
  expect(await black.getByTestId('order-no').textContent()).toBe(shipments[0]!.code);
  expect(await black.getByTestId('order-spec').textContent()).toBe('黑色,M');
  expect(await black.getByTestId('order-price').textContent()).toBe('NT$1,280.50');
  expect(await black.getByTestId('order-sku-id').textContent()).toBe(skuOf(coat.productId, '黑色,M'));
  // "459.005" 元 is rounded half-up, never through a float.
  expect(await orderRow(line.cup).getByTestId('order-price').textContent()).toBe('NT$459.01');
  expect(await orderRow(line.teeRedS).getByTestId('order-quantity').textContent()).toBe('2');
  // 单价 is the unit price; a line of two says its subtotal below it
  expect(shipments[0]!.details[1]!.price).toBe('299');
  expect(await orderRow(line.teeRedS).getByTestId('order-price').textContent()).toBe('NT$299.00');
  expect(await orderRow(line.teeRedS).getByTestId('order-line-total').textContent()).toBe('小计 NT$598.00');
  expect(await black.getByTestId('order-line-total').count()).toBe(0);
});

test('clearing a line’s SKU makes it 待匹配; the picker sets it again from the product’s SKUs', async () => {
  const teeSku = skuOf(tee.productId, '紅,S');
  const row = orderRow(line.teeRedS);
  await row.getByTestId('order-sku-clear').click();
  await page.locator(`[data-testid="order-row"][data-syb-id="${line.teeRedS}"][data-match="unmatched"]`).waitFor();
  expect(await row.getByTestId('order-match').textContent()).toBe('待匹配');
  expect(await apiLine(line.teeRedS)).toMatchObject({ shopee_sku_id: null, match_state: 'unmatched' });

  await page.getByTestId('order-filter-match').selectOption({ label: '待匹配' });
  await waitForOrderRows([line.teeRedS]);

  await row.getByTestId('order-sku-edit').click();
  const picker = row.getByTestId('order-sku-select');
  await picker.waitFor();
  // Only this product's SKUs are offered.
  expect(await picker.locator('option').count()).toBe(tee.specs.length + 1);
  await picker.selectOption(teeSku);
  await row.getByTestId('order-sku-save').click();
  await page.locator(`[data-testid="order-row"][data-syb-id="${line.teeRedS}"][data-match="matched"]`).waitFor();
  expect(await row.getByTestId('order-sku-id').textContent()).toBe(teeSku);
  expect(await apiLine(line.teeRedS)).toMatchObject({ shopee_sku_id: teeSku, match_state: 'matched' });

  await page.getByTestId('order-filter-match').selectOption({ label: '全部匹配状态' });
  await waitForOrderRows([line.coatWhiteS, line.shoes, line.cup, line.teeRedS, line.coatBlackM]);
});

test('生成采购草稿 (试运行): a draft for the mapped line, the refusals in Chinese for the others, nothing written for them', async () => {
  expect(await page.getByTestId('mode-dry-run').isChecked()).toBe(true);
  for (const id of [line.coatBlackM, line.coatWhiteS, line.teeRedS])
    await orderRow(id).getByTestId('order-select').check();
  expect(await page.getByTestId('order-selection-count').textContent()).toBe('3');
  await page.getByTestId('draft-create').click();

  const results = page.getByTestId('draft-results');
  await results.waitFor();
  const made = results.locator(`[data-testid="draft-result"][data-syb-id="${line.coatBlackM}"]`);
  draftId = (await made.getByTestId('draft-result-task').textContent()) ?? '';
  expect(draftId).not.toBe('');
  const white = results.locator(`[data-testid="draft-result"][data-syb-id="${line.coatWhiteS}"]`);
  expect(await white.getAttribute('data-code')).toBe('NO_MAPPING');
  expect(await white.getByTestId('draft-result-refusal').textContent()).toContain(API_ERROR_CODES.NO_MAPPING);
  const teeResult = results.locator(`[data-testid="draft-result"][data-syb-id="${line.teeRedS}"]`);
  expect(await teeResult.getAttribute('data-code')).toBe('NO_PDD_LINK');
  expect(await teeResult.getByTestId('draft-result-refusal').textContent()).toContain(API_ERROR_CODES.NO_PDD_LINK);
  // The refused lines stay picked, to fix and try again.
  expect(await page.getByTestId('order-selection-count').textContent()).toBe('2');

  // The list shows the draft on its line; the refused lines have none.
  await orderRow(line.coatBlackM).locator(`[data-testid="order-task-link"]`).waitFor();
  expect(await orderRow(line.coatBlackM).getByTestId('task-status').getAttribute('data-status')).toBe('DRAFT');
  expect(await orderRow(line.coatWhiteS).getByTestId('order-task-link').count()).toBe(0);
  expect((await apiLine(line.coatWhiteS)).task_id).toBeNull();
  expect((await apiLine(line.teeRedS)).task_id).toBeNull();

  const draft = (await api.get(`/api/tasks/${draftId}`)).body as Record<string, unknown>;
  expect(draft).toMatchObject({
    status: 'DRAFT',
    execution_mode: 'dry_run',
    quantity: 1,
    syb_id: line.coatBlackM,
    syb_order_no: shipments[0]!.code,
  });
  expect(draft).not.toHaveProperty('order_no');

  const shot = path.join(shotsDir, 'orders.png');
  await page.screenshot({ path: shot, fullPage: true });
  process.stderr.write(`orders screenshot: ${shot}\n`);
});

test('the outcome links to the draft; started from 采购任务, the phone runs it to 试运行通过, and 订单 shows it', async () => {
  await page
    .locator(`[data-testid="draft-result"][data-syb-id="${line.coatBlackM}"]`)
    .getByTestId('draft-result-task')
    .click();
  await page.locator(`[data-testid="page-task-detail"][data-task-id="${draftId}"]`).waitFor();
  expect(await page.getByTestId('task-mode').textContent()).toContain('试运行');
  // the draft says what the customer bought beside what it will buy
  expect(await page.getByTestId('task-order-line-spec').textContent()).toBe('黑色,M');

  await page.getByTestId('nav-tasks').click();
  const taskRow = page.locator(`[data-testid="task-row"][data-task-id="${draftId}"]`);
  await taskRow.getByTestId('task-select').check();
  await page.getByTestId('start-selected').click();
  await page.getByTestId('start-confirm').click();
  await page.getByTestId('start-dialog').waitFor({ state: 'detached' });

  const final = await until(
    'the dry run to end',
    async () => {
      const t = (await api.get(`/api/tasks/${draftId}`)).body as { status: string; reason_code: string | null };
      return ['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED'].includes(t.status) ? t : null;
    },
    120_000,
  );
  expect(final).toMatchObject({ status: 'DRY_RUN_PASSED' });
  // A dry run never taps 提交订单: no order on the phone.
  expect(demo.phones.phone('sim-orders').app.orders).toHaveLength(0);

  await page.getByTestId('nav-orders').click();
  const status = orderRow(line.coatBlackM).getByTestId('task-status');
  await page
    .locator(
      `[data-testid="order-row"][data-syb-id="${line.coatBlackM}"] [data-testid="task-status"][data-status="DRY_RUN_PASSED"]`,
    )
    .waitFor();
  expect(await status.textContent()).toBe('试运行通过');
  // A passed dry run frees the line for a live draft: it is listed among the lines with a task still.
  await page.getByTestId('order-filter-task').selectOption({ label: '已生成采购任务' });
  await waitForOrderRows([line.coatBlackM]);
});

test('a sync that fails says why in Chinese and keeps the time of the last good one', async () => {
  const lastGood = await page.getByTestId('sync-last').textContent();
  const control = new SimControl(syb.url);
  // The incremental sync lists only today's shipments: one page, so the first page fails.
  await control.faults({ fail_page: 1, fail_status: 502 });
  try {
    await page.getByTestId('sync-start').click();
    const error = page.getByTestId('sync-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('上次同步失败：顺运宝暂时无法访问，稍后会自动重试');
    expect(await page.getByTestId('sync-last').textContent()).toContain(
      /上次成功同步：(.*?)（/.exec(lastGood ?? '')?.[1] ?? 'missing',
    );
    expect(((await api.get('/api/syb/sync')).body as { last_error: string }).last_error).toMatch(/^SYB_UNAVAILABLE:/);
  } finally {
    await control.clearFaults();
  }
});
