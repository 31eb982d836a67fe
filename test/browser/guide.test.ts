import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { DraftWarning, TaskView } from '../../domain/purchase/views';
import type { Faults, Order } from '../../sim/phone';
import { defaultShipments, DEMO_PRODUCTS } from '../../sim/syb/data';
import { demoPddUrl, demoSkus } from '../../sim/syb/demo-export';
import { startSybSim, type SybSim } from '../../sim/syb/server';
import { startBrowserRig, waitForText, waitInPage, type BrowserRig } from '../browser';
import { guideExampleTables } from '../catalog/guide-example';
import { buildWorkbook } from '../catalog/workbook';
import { importDemoExportInUi, startDemoPhone, type DemoPhone } from './demo';
import { type OperatorClient, type TestAdmin } from '../harness';

/**
 * The operator's day as docs/operator-guide.md tells it, in a real browser on a 1366×768 screen,
 * on the demo data of a fresh `npm start`: import the Shopee export (and the guide's own example
 * table), link the coat, collect it on the phone, map it in one click, sync the SYB orders, draft →
 * dry run → 发布 → live → 待付款 → 标记已付款; a stop before the fence and its fix (重置为草稿); a
 * submit whose outcome is unclear (待核对) and how it is resolved; a start no phone takes, and why;
 * 设备 and 设置. Every step asserts what the operator should see. With
 * `CMAUTOBUY_GUIDE_SHOTS=<dir>` it also writes the guide's pictures there (`npm run
 * docs:screenshots` → docs/images). ui/dist must be built (`npx vite build --config
 * ui/vite.config.ts`). The tests share one page, in order, as one operator's day would.
 */

jest.setTimeout(240_000);

const SERIAL = 'sim-guide';
const SHOTS = process.env.CMAUTOBUY_GUIDE_SHOTS;

const shipments = defaultShipments();
const [coat] = DEMO_PRODUCTS;
/** the SYB line the day buys for: the coat in black, size M */
const COAT_BLACK_M = shipments[0]!.details[0]!.id;
const BLACK_M_SKU = demoSkus().find((s) => s.goodsId === coat.productId && s.spec === '黑色,M')!.skuId;
const BLACK_M = { 颜色分类: '黑色', 尺码: 'M' };

let rig: BrowserRig;
let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
let syb: SybSim;
let demo: DemoPhone;
const task: { dryRun?: string; live?: string; stopped?: string; unclear?: string; waiting?: string } = {};

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
  await page.setViewportSize({ width: 1366, height: 768 });
  syb = await startSybSim({ port: 0, shipments });
  demo = await startDemoPhone(admin, SERIAL, '深圳-01');
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
  if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await demo?.close();
  await syb?.close();
  await rig?.close();
});

/** The guide's picture of this step: the visible screen only, so each stays small and readable. */
async function shot(name: string): Promise<void> {
  if (!SHOTS) return;
  // Let fonts and images settle so the picture shows what the operator sees.
  await waitInPage<boolean>(
    page,
    `document.fonts.status === 'loaded' && Array.from(document.images).every((i) => i.complete)`,
    (v) => v,
  );
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** The phone simulator's control API, as an engineer would drive it with curl (sim/phone/SCREENS.md). */
async function control(method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${demo.phones.controlPort}/devices/${SERIAL}${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`phone control ${method} ${route}: ${res.status} ${await res.text()}`);
  return res.json().catch(() => null);
}
const setFaults = (faults: Faults): Promise<unknown> => control('PUT', '/faults', faults);
const clearFaults = (): Promise<unknown> => control('DELETE', '/faults');
const phoneOrders = async (): Promise<Order[]> => (await control('GET', '/orders')) as Order[];

async function apiTask(taskId: string): Promise<TaskView> {
  return (await api.get(`/api/tasks/${encodeURIComponent(taskId)}`)).body as TaskView;
}

function taskRow(taskId: string): Locator {
  return page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
}

function orderRow(sybId: string): Locator {
  return page.locator(`[data-testid="order-row"][data-syb-id="${sybId}"]`);
}

/** The detail page's badge reaches `status` (it polls every few seconds while the task runs). */
async function detailStatus(taskId: string, status: string): Promise<void> {
  try {
    await page
      .locator(
        `[data-testid="page-task-detail"][data-task-id="${taskId}"] .tk-head [data-testid="task-status"][data-status="${status}"]`,
      )
      .waitFor({ timeout: 120_000 });
  } catch (err) {
    const t = await apiTask(taskId);
    throw new Error(
      `task ${taskId} never showed ${status}; the API says ${t.status} (${t.reason_code ?? 'no reason'}: ${t.reason_zh ?? ''})`,
      { cause: err },
    );
  }
}

/** On 采购任务: tick these drafts, 开始采购, confirm; returns the dialog's live count as shown. */
async function startFromList(taskIds: string[], shotName?: string): Promise<string> {
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('page-tasks').waitFor();
  await page.getByTestId('task-refresh').click();
  for (const id of taskIds) await taskRow(id).getByTestId('task-select').check();
  await page.getByTestId('start-selected').click();
  const dialog = page.getByTestId('start-dialog');
  await dialog.waitFor();
  const live = (await dialog.getByTestId('start-live-count').textContent()) ?? '';
  if (shotName) await shot(shotName);
  await dialog.getByTestId('start-confirm').click();
  await dialog.waitFor({ state: 'detached' });
  return live;
}

async function openTask(taskId: string): Promise<void> {
  await page.goto(`${admin.url}/#/tasks/${encodeURIComponent(taskId)}`);
  await page
    .locator(`[data-testid="page-task-detail"][data-task-id="${taskId}"] [data-testid="next-step-text"]`)
    .waitFor();
}

/** A draft of one 黑色 / M at ¥20.00, made through the API for a step that is about what follows it. */
async function draftByApi(mode: 'dry_run' | 'live'): Promise<string> {
  const created = await api.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: demoPddUrl(coat.pddGoodsId),
    pdd_options: BLACK_M,
    quantity: 1,
    max_total_price_cent: 2000,
    execution_mode: mode,
  });
  expect(created.status).toBe(201);
  return (created.body as { task_id: string }).task_id;
}

/** 订单: tick the coat's black M line and 生成采购草稿 in `mode`; returns the new task id. */
async function draftFromOrder(mode: 'dry_run' | 'live', shotName?: string): Promise<string> {
  await page.getByTestId('nav-orders').click();
  await page.getByTestId('page-orders').waitFor();
  await orderRow(COAT_BLACK_M).waitFor();
  await page.getByTestId(mode === 'live' ? 'mode-live' : 'mode-dry-run').check();
  if (mode === 'live') await page.getByTestId('mode-live-warning').waitFor();
  await orderRow(COAT_BLACK_M).getByTestId('order-select').check();
  await page.getByTestId('draft-create').click();
  const made = page.locator(`[data-testid="draft-result"][data-syb-id="${COAT_BLACK_M}"]`);
  await made.getByTestId('draft-result-task').waitFor();
  const taskId = ((await made.getByTestId('draft-result-task').textContent()) ?? '').trim();
  expect(taskId).not.toBe('');
  if (shotName) await shot(shotName);
  return taskId;
}

test('1 导入: the demo Shopee export lands on 商品 with every product and SKU', async () => {
  await importDemoExportInUi(page, admin.url, 'demo-shopee.xlsx');
  expect(await page.getByTestId('import-products').textContent()).toBe(String(DEMO_PRODUCTS.length));
  expect(await page.getByTestId('import-skus').textContent()).toBe(String(demoSkus().length));
  expect(await page.getByTestId('import-failed-row').count()).toBe(0);
  await page.locator(`[data-testid="product-row"][data-goods-id="${coat.productId}"]`).waitFor();
  await shot('01-import.png');
});

test('1a 导入 the guide’s own example: its SKU-only table (docs/operator-guide.md §1) adds its products', async () => {
  // The walk goes on with the demo export: the coat it links is the one the simulator phone sells.
  const [skuOnly] = guideExampleTables();
  const goodsIds = [...new Set(skuOnly!.rows.map((r) => r['商品ID']!))];
  await page.getByTestId('import-file').setInputFiles({
    name: 'guide-example.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await buildWorkbook(skuOnly!.header, skuOnly!.rows),
  });
  await page.getByTestId('import-start').click();
  await waitInPage<string>(
    page,
    `document.querySelector('[data-testid="import-products"]')?.textContent ?? ''`,
    (v) => v === String(goodsIds.length),
  );
  expect(await page.getByTestId('import-skus').textContent()).toBe(String(skuOnly!.rows.length));
  expect(await page.getByTestId('import-failed-row').count()).toBe(0);
  for (const id of goodsIds) await page.locator(`[data-testid="product-row"][data-goods-id="${id}"]`).waitFor();
  await page.locator(`[data-testid="product-row"][data-goods-id="${coat.productId}"]`).waitFor();
});

test('2 链接: the coat’s PDD link is pasted on its page; it is 待采集', async () => {
  await page.locator(`[data-testid="product-row"][data-goods-id="${coat.productId}"]`).click();
  await page.getByTestId('product-title').waitFor();
  await page.getByTestId('pdd-url').fill(demoPddUrl(coat.pddGoodsId));
  await page.getByTestId('pdd-url-save').click();
  await page.getByTestId('pdd-goods-id').waitFor();
  expect(await page.getByTestId('pdd-goods-id').textContent()).toBe(coat.pddGoodsId);
  expect(await page.getByTestId('detail-message').textContent()).toBe('已保存拼多多链接');
  expect(await page.getByTestId('pdd-status').getByTestId('state-badge').textContent()).toBe('待采集');
  await shot('02-link.png');
});

test('3 采集: the phone reads every option; the page turns 已采集 by itself', async () => {
  await page.getByTestId('collect-start').click();
  await page.getByTestId('collect-live').waitFor();
  await page.locator('[data-testid="pdd-status"][data-status="collected"]').waitFor({ timeout: 120_000 });
  expect(await page.getByTestId('pdd-status').getByTestId('state-badge').textContent()).toBe('已采集');
  expect(await page.getByTestId('collect-failure').count()).toBe(0);
  expect(await page.getByTestId('mapping-open').isDisabled()).toBe(false);
  await shot('03-collect.png');
});

test('4 映射: 按文字一致全部映射 maps 黑色,M (after its preview); the SKU table shows its PDD price', async () => {
  // After the collect the one-click mapping is the next step, its count on the button.
  const open = page.getByTestId('auto-mapping-open');
  await open.waitFor();
  expect(await open.textContent()).toMatch(/^按文字一致全部映射（\d+）$/);
  expect((await open.getAttribute('class'))?.split(' ')).toContain('btn-primary');
  await open.click();
  const preview = page.getByTestId('auto-mapping-dialog');
  const blackM = preview.locator(`[data-testid="auto-mapping-row"][data-sku-id="${BLACK_M_SKU}"]`);
  await blackM.waitFor();
  expect(await blackM.textContent()).toContain('黑色 / M');
  expect(await blackM.textContent()).toContain('¥12.88');
  const count = await preview.getByTestId('auto-mapping-row').count();
  expect(await preview.getByTestId('auto-mapping-confirm').textContent()).toBe(`确认映射 ${count} 个 SKU`);
  await shot('04-auto-map.png');
  await preview.getByTestId('auto-mapping-confirm').click();
  await preview.waitFor({ state: 'detached' });
  await waitForText(page, 'detail-message', `已按文字一致映射 ${count} 个 SKU`);
  const price = page.locator(`[data-testid="sku-row"][data-sku-id="${BLACK_M_SKU}"]`).getByTestId('sku-pdd-price');
  await price.waitFor();
  // the collect selected this very row: its price is measured, with the list price it showed
  expect(await price.textContent()).toBe(' ¥12.88 实测 划线 ¥19.90');
  const product = (await api.get(`/api/shopee/products/${coat.productId}`)).body as {
    skus: Array<{ sku_id: string; mapping: { pdd_options: Record<string, string> } | null }>;
  };
  expect(product.skus.find((s) => s.sku_id === BLACK_M_SKU)?.mapping?.pdd_options).toEqual({
    color: '黑色',
    size: 'M',
  });

  // 规格映射 (by hand, for what the text does not match) shows the same: 黑色 / M 已映射.
  await page.getByTestId('mapping-open').click();
  const dialog = page.getByTestId('mapping-dialog');
  await dialog.waitFor();
  const shopee = dialog.locator(`[data-testid="mapping-shopee-row"][data-sku-id="${BLACK_M_SKU}"]`);
  await shopee.click();
  expect(await shopee.textContent()).toContain('→ 黑色 / M');
  const mapped = dialog.locator('[data-testid="mapping-pdd-row"]', { hasText: '已映射' });
  await mapped.waitFor();
  expect(await mapped.textContent()).toContain('¥12.88');
  await shot('04-map.png');
  await dialog.getByTestId('mapping-close').click();
  await dialog.waitFor({ state: 'detached' });
});

test('5 订单: 立即同步 brings the SYB lines in; the coat’s black M (mapped) is 可采购', async () => {
  await page.getByTestId('nav-orders').click();
  await page.getByTestId('page-orders').waitFor();
  await page.getByTestId('sync-start').click();
  await orderRow(COAT_BLACK_M).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="sync-panel"][data-running="0"]').waitFor({ timeout: 60_000 });
  expect(await page.getByTestId('sync-error').count()).toBe(0);
  expect(await page.getByTestId('sync-last').textContent()).toContain('条明细');
  expect(await orderRow(COAT_BLACK_M).getByTestId('order-match').textContent()).toBe('可采购');
  await shot('05-orders-sync.png');
});

test('6 生成采购草稿 (试运行): a dry-run draft with the cap from the collected price plus the tolerance', async () => {
  expect(await page.getByTestId('mode-dry-run').isChecked()).toBe(true);
  task.dryRun = await draftFromOrder('dry_run', '06-orders-draft.png');
  expect(await apiTask(task.dryRun)).toMatchObject({
    status: 'DRAFT',
    execution_mode: 'dry_run',
    quantity: 1,
    max_total_price_cent: 1288 + 500,
    pdd_options: BLACK_M,
  });
});

test('7 开始采购 → 试运行通过: the phone reaches the final panel, taps nothing, no order', async () => {
  expect(await startFromList([task.dryRun!], '07-start.png')).toBe('0');
  await openTask(task.dryRun!);
  await detailStatus(task.dryRun!, 'DRY_RUN_PASSED');
  expect(await page.locator('.tk-head [data-testid="task-status"]').textContent()).toBe('试运行通过');
  expect(await page.getByTestId('gate-gate1').getAttribute('data-verdict')).toBe('pass');
  await page.getByTestId('evidence-thumb').first().waitFor();
  expect(await phoneOrders()).toEqual([]);
  await shot('08-dry-run.png');
  // The gate readings and the phone's screenshots are further down the same page.
  await page.getByTestId('gates').scrollIntoViewIfNeeded();
  await page.evaluate(`document.querySelector('[data-testid="gates"]').scrollIntoView({ block: 'start' })`);
  await shot('08-dry-run-gates.png');

  // 查看原图: a screenshot at the phone's own pixels, to read what the phone read
  await page.getByTestId('evidence-thumb').first().click();
  await page.getByTestId('evidence-dialog').waitFor();
  await page.getByTestId('evidence-full-open').click();
  await page.getByTestId('evidence-viewer').waitFor();
  await waitInPage<boolean>(
    page,
    `(() => { const i = document.querySelector('[data-testid="evidence-full"]'); return !!i && i.complete && i.getBoundingClientRect().width === i.naturalWidth; })()`,
    (v) => v,
  );
  expect(await page.getByTestId('evidence-zoom').textContent()).toBe('100%');
  await shot('08-dry-run-full.png');
  await page.keyboard.press('Escape');
  await page.getByTestId('evidence-viewer').waitFor({ state: 'detached' });
  await page.getByTestId('evidence-close').click();
  await page.getByTestId('evidence-dialog').waitFor({ state: 'detached' });
});

test('8a 发布拼多多版本: the dry run made 8.17.0 releasable; nothing had released it', async () => {
  await page.getByTestId('nav-devices').click();
  const row = page.locator('[data-testid="app-version-row"][data-app-version="8.17.0"]');
  await row.waitFor();
  expect(await row.getAttribute('data-released')).toBe('false');
  await row.locator('[data-testid="app-version-release"]:not([disabled])').waitFor();
  await shot('09-release.png');
  await row.getByTestId('app-version-release').click();
  // the confirmation names the dry run the release rests on: step 7's
  await page.getByTestId('app-version-release-dialog').getByText(`试运行任务 ${task.dryRun!}`).waitFor();
  await page.getByTestId('app-version-release-dialog-confirm').click();
  await page.locator('[data-testid="app-version-row"][data-app-version="8.17.0"][data-released="true"]').waitFor();
});

test('8 真实下单 → 待付款: exactly one unpaid order on the phone, its number on the task', async () => {
  task.live = await draftFromOrder('live', '09-live-draft.png');
  expect((await apiTask(task.live)).execution_mode).toBe('live');
  // The start dialog counts the live ones, so a live order is never started unnoticed.
  expect(await startFromList([task.live], '10-live-start.png')).toBe('1');
  await openTask(task.live);
  await detailStatus(task.live, 'WAITING_PAYMENT');
  const orders = await phoneOrders();
  expect(orders).toHaveLength(1);
  expect(orders[0]).toMatchObject({ goods_id: coat.pddGoodsId, quantity: 1, total_cent: 1288 });
  expect(await page.getByTestId('task-pdd-order-no').textContent()).toBe(orders[0]!.order_no);
  expect(await page.locator('.tk-head [data-testid="task-status"]').textContent()).toBe('待付款');
  expect(await page.getByTestId('action-mark-paid').count()).toBe(1);
  await shot('11-waiting-payment.png');
});

test('9 标记已付款 (after paying on the phone) → 已完成', async () => {
  const orderNo = (await page.getByTestId('task-pdd-order-no').textContent()) ?? '';
  expect(orderNo).not.toBe('');
  await page.getByTestId('action-mark-paid').click();
  await page.getByTestId('confirm-dialog').waitFor();
  // the confirmation names the PDD order to have paid
  expect(await page.getByTestId('confirm-dialog').textContent()).toContain(`拼多多订单号 ${orderNo}`);
  await shot('12-mark-paid.png');
  await page.getByTestId('confirm-dialog-confirm').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
  await detailStatus(task.live!, 'SUCCEEDED');
  expect(await page.getByTestId('action-error').count()).toBe(0);
  expect((await apiTask(task.live!)).status).toBe('SUCCEEDED');
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('task-refresh').click();
  await page.locator(`[data-testid="task-row"][data-task-id="${task.live!}"][data-status="SUCCEEDED"]`).waitFor();
  await shot('13-tasks.png');
});

test('10 需人工处理: the price changes after Gate 1; the phone stops before 提交订单 and the page says why', async () => {
  task.stopped = await draftByApi('live');
  await setFaults({ price_change: { goods_id: coat.pddGoodsId, after: 'gate1', price_cent: 1500 } });
  const ordersBefore = (await phoneOrders()).length;
  expect(await startFromList([task.stopped])).toBe('1');
  await openTask(task.stopped);
  await detailStatus(task.stopped, 'NEEDS_MANUAL');
  expect(await page.getByTestId('task-reason').getAttribute('data-reason')).toBe('PRICE_CHANGED');
  expect(await page.getByTestId('action-reset').count()).toBe(1);
  // Stopped before the fence: no new order on the phone.
  expect((await phoneOrders()).length).toBe(ordersBefore);
  expect((await apiTask(task.stopped)).submission).toBeNull();
  await shot('14-needs-manual.png');
});

test('11 重置为草稿: after checking the phone, the task is a draft again and runs to 待付款', async () => {
  await clearFaults();
  await page.getByTestId('action-reset').click();
  await page.getByTestId('confirm-dialog').waitFor();
  await page.getByTestId('confirm-dialog-confirm').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
  await detailStatus(task.stopped!, 'DRAFT');
  expect((await apiTask(task.stopped!)).authorization?.status).toBe('ABANDONED');
  await shot('15-reset.png');

  // The live order of step 8 is still unpaid on the phone (the simulator takes no payment), and
  // two unpaid orders of the same goods and amount cannot be told apart: the purchase would rightly
  // stop in 待核对 (ORDER_NOT_MATCHED). A new order book stands for the operator having paid it.
  await control('POST', '/reset');
  const ordersBefore = (await phoneOrders()).length;
  await startFromList([task.stopped!]);
  await openTask(task.stopped!);
  await detailStatus(task.stopped!, 'WAITING_PAYMENT');
  expect((await phoneOrders()).length).toBe(ordersBefore + 1);
});

test('12 待核对: the submit’s outcome is unclear; the page says not to retry and offers the two answers', async () => {
  // A new order book, so the phone's earlier unpaid orders cannot be taken for this one.
  await control('POST', '/reset');
  await setFaults({ submit_outcome: 'not_created' });
  task.unclear = await draftByApi('live');
  await startFromList([task.unclear]);
  await openTask(task.unclear);
  await detailStatus(task.unclear, 'RECONCILIATION_REQUIRED');
  expect(await page.locator('.tk-head [data-testid="task-status"]').textContent()).toBe('待核对');
  expect(await page.getByTestId('action-resolve-created').count()).toBe(1);
  expect(await page.getByTestId('action-resolve-not-created').count()).toBe(1);
  expect(await page.getByTestId('action-cancel').count()).toBe(0);
  expect(await phoneOrders()).toEqual([]);
  await shot('16-reconcile.png');

  // 已创建 asks for the order number found on the phone; without one it refuses.
  await page.getByTestId('action-resolve-created').click();
  await page.getByTestId('resolve-dialog').waitFor();
  await shot('17-resolve-created.png');
  await page.getByTestId('resolve-confirm').click();
  expect(await page.getByTestId('resolve-error').textContent()).toBe('请填写拼多多订单号');
  await page.getByTestId('resolve-back').click();
  await page.getByTestId('resolve-dialog').waitFor({ state: 'detached' });
  expect((await apiTask(task.unclear)).status).toBe('RECONCILIATION_REQUIRED');
});

test('13 核对结果「未创建」: no order on the phone, so the task ends as 失败 and is never retried', async () => {
  await page.getByTestId('action-resolve-not-created').click();
  await page.getByTestId('confirm-dialog').waitFor();
  await page.getByTestId('confirm-dialog-confirm').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
  await detailStatus(task.unclear!, 'FAILED');
  expect(await page.getByTestId('action-error').count()).toBe(0);
  await clearFaults();
  expect(await phoneOrders()).toEqual([]);
  await shot('18-resolved.png');
});

test('13a 没有手机能领取: with the only phone paused, a started task says which phone and why, then runs once it is resumed', async () => {
  expect((await api.post(`/api/devices/${demo.deviceId}/pause`)).status).toBe(200);
  task.waiting = await draftByApi('dry_run');
  const started = page.waitForResponse((r) => r.url().endsWith('/api/tasks/start'));
  await startFromList([task.waiting]);
  const answer = (await (await started).json()) as { tasks: Array<{ task_id: string; warnings: DraftWarning[] }> };
  const warnings = answer.tasks.find((t) => t.task_id === task.waiting)!.warnings;
  expect(warnings.map((w) => w.code)).toEqual(['NO_PHONE_CAN_CLAIM']);
  expect(warnings[0]!.message).toContain('深圳-01（操作员已暂停）');

  await openTask(task.waiting);
  await page.getByTestId('task-device').getByText('等待手机领取').waitFor();
  const phone = page.locator(`[data-testid="waiting-phone"][data-device-id="${demo.deviceId}"]`);
  await phone.getByText('深圳-01：操作员已暂停').waitFor();
  expect(await phone.getAttribute('data-reason')).toBe('DEVICE_PAUSED');
  await page.locator('[data-testid="draft-warning"][data-code="NO_PHONE_CAN_CLAIM"]').waitFor();
  expect((await apiTask(task.waiting)).status).toBe('PENDING');
  await shot('19-waiting-for-phone.png');

  // 恢复: the phone's worker reads its screen, then takes the task; the dry run orders nothing.
  expect([200, 202]).toContain((await api.post(`/api/devices/${demo.deviceId}/resume`)).status);
  await detailStatus(task.waiting, 'DRY_RUN_PASSED');
  expect(await page.getByTestId('waiting-for').count()).toBe(0);
  expect(await phoneOrders()).toEqual([]);
});

test('14 设备: the phone is listed by its name, 在线', async () => {
  await page.getByTestId('nav-devices').click();
  const row = page.locator(`[data-testid="device-row"][data-device-id="${demo.deviceId}"]`);
  await row.getByTestId('device-display-name').getByText('深圳-01').waitFor();
  await row.locator('[data-testid="device-online"]', { hasText: '在线' }).waitFor();
  await shot('19-devices.png');
});

test('15 设置: the safety settings with their defaults', async () => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('page-settings').waitFor();
  await page.getByTestId('setting-safety.max_quantity').waitFor();
  expect(await page.getByTestId('setting-safety.max_quantity').inputValue()).toBe('10');
  expect(await page.getByTestId('setting-safety.price_tolerance_cent').inputValue()).toBe('5.00');
  await waitInPage<string>(
    page,
    `(document.querySelector('[data-testid="syb-url"]') || {}).value || ''`,
    (v) => v === syb.url,
  );
  await shot('20-settings.png');
});
