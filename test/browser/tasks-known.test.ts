import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PRODUCTS } from '../../sim/syb/data';
import { demoShopeeExport, demoSkus } from '../../sim/syb/demo-export';
import { startBrowserRig, waitForHash, type BrowserRig } from '../browser';
import { linkAndCollect, startDemoPhone, type DemoPhone } from './demo';
import { upload } from '../catalog/helpers';
import { TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * Purchase tasks from what the admin knows, in a real browser: the demo coat imported, linked to
 * the phone simulator's goods, collected by a real device worker and its black M mapped (set-up
 * through the API); then 采购 on that SKU → the form pre-filled with pickers and the cap → a dry
 * run the list follows by itself to 试运行通过 → 复制为真实下单 → 编辑 → hiding finished tasks.
 * ui/dist must be built (`npx vite build --config ui/vite.config.ts`). The tests share one page.
 */

const [coat] = DEMO_PRODUCTS;
const SERIAL = 'sim-tasks-known';
const blackM = (): string => {
  const sku = demoSkus().find((s) => s.goodsId === coat.productId && s.spec === '黑色,M');
  if (!sku) throw new Error('no demo SKU for the black M coat');
  return sku.skuId;
};

let rig: BrowserRig;
let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
let shotsDir: string;
let demo: DemoPhone;
const ids: { dry?: string; live?: string } = {};

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page, shotsDir } = rig);
  demo = await startDemoPhone(admin, SERIAL, 'tasks phone');
  expect((await upload(api, await demoShopeeExport())).status).toBe(200);
  const collected = await linkAndCollect(api, coat);
  expect(collected.collect_status).toBe('collected');
  const row = collected.skus_json?.skus.find((s) => Object.values(s.options).join('/') === '黑色/M');
  expect(row?.price_cent).toBe(1288);
  expect((await api.put(`/api/mappings/${blackM()}`, { pdd_options: row!.options })).status).toBe(200);
});

afterAll(async () => {
  await demo?.close();
  await rig?.close();
});

function taskRow(taskId: string): Locator {
  return page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
}

function picker(dimension: string): Locator {
  return page.locator(`[data-testid="option-picker"][data-dimension="${dimension}"]`);
}

async function createdId(): Promise<string> {
  await waitForHash(page, /^#\/tasks\?created=/);
  const notice = await page.getByTestId('task-notice').textContent();
  const id = /已保存草稿 (\S+)/.exec(notice ?? '')?.[1];
  if (!id) throw new Error(`no saved draft in the notice: ${notice ?? ''}`);
  return id;
}

test('采购 on a mapped SKU opens the form with pickers of the collected dimensions and the cap pre-filled', async () => {
  await page.goto(`${admin.url}/#/products/${coat.productId}`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  const sku = page.locator(`[data-testid="sku-row"][data-sku-id="${blackM()}"]`);
  await sku.getByTestId('sku-purchase').click();
  await waitForHash(page, /^#\/tasks\/new\?sku=/);
  await page.locator('[data-testid="task-form"][data-ready="ready"]').waitFor();
  await picker('颜色分类').waitFor();
  // the pickers offer exactly what was collected; no free-text rows
  expect(await picker('颜色分类').locator('option').allTextContents()).toEqual(['请选择', '黑色', '白色']);
  expect(await picker('尺码').locator('option').allTextContents()).toEqual(['请选择', 'S', 'M', 'L']);
  expect(await page.getByTestId('option-name').count()).toBe(0);
  expect(await picker('颜色分类').inputValue()).toBe('黑色');
  expect(await picker('尺码').inputValue()).toBe('M');
  expect(await page.getByTestId('field-url').inputValue()).toContain(coat.pddGoodsId);
  expect(await page.getByTestId('field-quantity').inputValue()).toBe('1');
  // collected ¥12.88 × 1 + the default tolerance ¥5.00
  expect(await page.getByTestId('field-max-price').inputValue()).toBe('17.88');
  expect(await page.getByTestId('mode-dry-run').isChecked()).toBe(true);
});

test('an option the goods does not offer is refused by the server with its Chinese reason, and nothing is saved', async () => {
  const before = ((await api.get('/api/tasks')).body as { total: number }).total;
  await picker('颜色分类').selectOption('白色');
  await picker('尺码').selectOption('L');
  expect(await page.getByTestId('option-picked').textContent()).toContain('缺货');
  await page.getByTestId('task-form-submit').click();
  const error = page.getByTestId('error-pdd_options');
  await error.waitFor();
  expect(await error.textContent()).toMatch(/「白色 \/ L」在上次采集时缺货/u);
  expect(((await api.get('/api/tasks')).body as { total: number }).total).toBe(before);
});

test('saved from the pickers, started, the dry run reaches 试运行通过 on the list without a refresh', async () => {
  await picker('颜色分类').selectOption('黑色');
  await picker('尺码').selectOption('M');
  await page.getByTestId('task-form-submit').click();
  ids.dry = await createdId();
  const stored = (await api.get(`/api/tasks/${ids.dry}`)).body as Record<string, unknown>;
  expect(stored).toMatchObject({
    pdd_goods_id: coat.pddGoodsId,
    pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
    quantity: 1,
    max_total_price_cent: 1788,
    execution_mode: 'dry_run',
  });

  await taskRow(ids.dry).getByTestId('task-select').check();
  await page.getByTestId('start-selected').click();
  await page.getByTestId('start-confirm').click();
  await page.getByTestId('start-dialog').waitFor({ state: 'detached' });
  // No click on 刷新 from here: the list polls while a task is on its way.
  await page
    .locator(`[data-testid="task-row"][data-task-id="${ids.dry}"][data-status="DRY_RUN_PASSED"]`)
    .waitFor({ timeout: 120_000 });
  const row = taskRow(ids.dry);
  expect(await row.getByTestId('task-status').textContent()).toBe('试运行通过');
  expect(await row.getByTestId('task-shop').textContent()).toBe('优衣仓男装旗舰店');
  expect(await row.getByTestId('task-duration').textContent()).toMatch(/^\d+(秒|分\d+秒)$/u);
  expect(await page.getByTestId('task-total').textContent()).toBe('共 1 条');
  expect(demo.phones.phone(SERIAL).app.orders).toHaveLength(0);

  // 1366 px wide: the table fits, 原因 and 更新时间 included, without scrolling sideways.
  const fits = await page.evaluate<boolean>(
    `(() => { const w = document.querySelector('.tk-table-wrap'); const t = document.querySelector('[data-testid="task-updated"]');
      return !!w && !!t && w.scrollWidth <= w.clientWidth && t.getBoundingClientRect().right <= window.innerWidth; })()`,
  );
  expect(fits).toBe(true);
  const shot = path.join(shotsDir, 'task-list-1366.png');
  await page.screenshot({ path: shot, fullPage: true });
  process.stderr.write(`task list screenshot: ${shot}\n`);
});

test('复制为真实下单 makes a live draft with the same goods, options, quantity and cap; 编辑 saves a new version', async () => {
  await taskRow(ids.dry!).getByTestId('task-link').click();
  await page.locator(`[data-testid="page-task-detail"][data-task-id="${ids.dry!}"]`).waitFor();
  expect(await page.getByTestId('action-edit').count()).toBe(0);
  await page.getByTestId('action-copy-live').click();
  ids.live = await createdId();
  expect(ids.live).not.toBe(ids.dry);
  // the copy lands picked in the list, one 开始采购 away
  await taskRow(ids.live).getByTestId('task-select').waitFor();
  expect(await taskRow(ids.live).getByTestId('task-select').isChecked()).toBe(true);
  expect(await page.getByTestId('selection-count').textContent()).toBe('1');
  expect((await api.get(`/api/tasks/${ids.live}`)).body).toMatchObject({
    status: 'DRAFT',
    execution_mode: 'live',
    version: 1,
    pdd_goods_id: coat.pddGoodsId,
    pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
    quantity: 1,
    max_total_price_cent: 1788,
  });

  await taskRow(ids.live).getByTestId('task-link').click();
  await page.locator(`[data-testid="page-task-detail"][data-task-id="${ids.live}"]`).waitFor();
  await page.getByTestId('action-edit').click();
  await waitForHash(page, /\/edit$/);
  await page.locator('[data-testid="task-form"][data-ready="ready"]').waitFor();
  expect(await page.getByTestId('mode-live').isChecked()).toBe(true);
  expect(await picker('尺码').inputValue()).toBe('M');
  await picker('尺码').selectOption('S');
  await page.getByTestId('field-quantity').fill('2');
  await page.getByTestId('field-max-price').fill('30');
  await page.getByTestId('task-form-submit').click();
  await page.locator(`[data-testid="page-task-detail"][data-task-id="${ids.live}"]`).waitFor();
  await page.getByTestId('task-cap').filter({ hasText: '¥30.00' }).waitFor();
  expect(await page.getByTestId('task-options').textContent()).toBe('颜色分类：黑色 / 尺码：S');
  expect((await api.get(`/api/tasks/${ids.live}`)).body).toMatchObject({
    version: 2,
    quantity: 2,
    max_total_price_cent: 3000,
    pdd_options: { 颜色分类: '黑色', 尺码: 'S' },
    execution_mode: 'live',
  });
  // the start the operator might have asked for before the edit is refused
  const stale = await api.post('/api/tasks/start', { tasks: [{ task_id: ids.live, version: 1 }] });
  expect(stale.status).toBe(409);
});

test('finished tasks are hidden in bulk; 显示已隐藏 shows them again; a cancel shows at once with its 已取消 line', async () => {
  // cancel the live draft from its page: the answer updates the page, no poll needed
  await page.getByTestId('action-cancel').click();
  await page.getByTestId('confirm-dialog-confirm').click();
  await page.locator('[data-testid="page-task-detail"] [data-testid="task-status"][data-status="CANCELED"]').waitFor();
  expect(await page.getByTestId('action-edit').count()).toBe(0);
  expect(await page.locator('[data-testid="timeline-entry"][data-status="CANCELED"]').count()).toBe(1);

  await page.getByTestId('nav-tasks').click();
  await taskRow(ids.live!).waitFor();
  expect(await page.getByTestId('task-total').textContent()).toBe('共 2 条');
  await taskRow(ids.dry!).getByTestId('task-select-hide').check();
  await taskRow(ids.live!).getByTestId('task-select-hide').check();
  expect(await page.getByTestId('hide-count').textContent()).toBe('2');
  await page.getByTestId('hide-selected').click();
  await page.getByTestId('task-empty').waitFor();
  expect(await page.getByTestId('task-total').textContent()).toBe('共 0 条');

  await page.getByTestId('task-show-hidden').check();
  await taskRow(ids.dry!).waitFor();
  expect(await taskRow(ids.dry!).getAttribute('data-hidden')).toBe('true');
  expect(await taskRow(ids.live!).getByTestId('task-hidden-tag').textContent()).toBe('已隐藏');
  expect(await page.getByTestId('task-total').textContent()).toBe('共 2 条');
});
