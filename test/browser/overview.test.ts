import type { Page } from 'playwright-core';
import type { AdminDb } from '../../admin/db/database';
import type { PurchaseStatus } from '../../domain/purchase/status';
import { taipeiDay } from '../../domain/syb';
import { toUtcTimestamp } from '../../domain/time';
import { startBrowserRig, waitForHash, waitInPage, waitForText, type BrowserRig } from '../browser';
import { issueTestDevice, TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * 概览 in a real browser against a real admin (ui/dist must be built: `npm test` does it; by hand
 * `npx vite build --config ui/vite.config.ts`): a day of order lines, live purchases reaching
 * 待付款 and 已付款, dry runs and stops, seeded as rows whose state changes the admin's triggers
 * count; the charts are drawn (SVG, their figures readable), the tables show the day's numbers,
 * and a loss is red.
 */
let admin: TestAdmin;
let api: OperatorClient;
let page: Page;
let rig: BrowserRig;

const NOW = Date.now();
const minutesAgo = (m: number): string => toUtcTimestamp(new Date(NOW - m * 60_000));
/** everything happens a few minutes ago: today's Taipei day (the page's default range ends today) */
const AT = minutesAgo(2);
const DAY = taipeiDay(new Date(AT));
const OPTIONS = JSON.stringify({ 颜色分类: '黑色' });

/** what the page's Content-Security-Policy refused: ECharts must draw within it */
const refused: string[] = [];

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
  page.on('console', (m) => {
    if (m.type() === 'error' && m.text().includes('Content Security Policy')) refused.push(m.text());
  });
});
afterAll(async () => {
  await rig?.close();
});

async function orderLine(db: AdminDb, sybId: string, priceTwdCent: number): Promise<void> {
  await db
    .insertInto('syb_orders')
    .values({
      syb_id: sybId,
      syb_order_no: `SYB-${sybId}`,
      title: '羊毛大衣',
      product_spec: '黑色',
      shopee_goods_id: '880001',
      shopee_sku_id: null,
      quantity: 1,
      price_twd_cent: priceTwdCent,
      image_url: null,
      syb_data: '{}',
      created_at: AT,
      first_synced_at: AT,
      updated_at: AT,
      data_problem: null,
    })
    .execute();
}

async function task(db: AdminDb, taskId: string, mode: 'live' | 'dry_run', sybId: string | null = null): Promise<void> {
  await db
    .insertInto('tasks')
    .values({
      task_id: taskId,
      task_type: 'purchase',
      status: 'ORDERING',
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=990001',
      pdd_goods_id: '990001',
      pdd_options: OPTIONS,
      quantity: 1,
      max_total_price_cent: 50_000,
      execution_mode: mode,
      title: '羊毛大衣',
      syb_id: sybId,
      created_at: minutesAgo(30),
      updated_at: minutesAgo(30),
    })
    .execute();
}

/** A stop or a dry run's end: the state change the triggers count. */
async function moveTo(
  db: AdminDb,
  taskId: string,
  status: PurchaseStatus,
  reasonCode: string | null = null,
): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ status, reason_code: reasonCode, updated_at: AT })
    .where('task_id', '=', taskId)
    .execute();
}

/** A live purchase on `deviceId` that tapped 提交订单 for `amountCent` and reached 待付款; the phone busy `busyMinutes`. */
async function liveToWaitingPayment(
  db: AdminDb,
  taskId: string,
  deviceId: string,
  amountCent: number,
  busyMinutes: number,
): Promise<void> {
  const authId = `auth-${taskId}`;
  const attemptId = `attempt-${taskId}`;
  const workflowId = `purchase/${taskId}/${authId}`;
  await db
    .insertInto('order_authorizations')
    .values({
      id: authId,
      task_id: taskId,
      task_version: 1,
      start_key: authId,
      goods_id: '990001',
      pdd_options: OPTIONS,
      quantity: 1,
      max_total_price_cent: 50_000,
      execution_mode: 'live',
      status: 'CONSUMED',
      workflow_id: workflowId,
      workflow_started_at: minutesAgo(30),
      created_by: 'test',
      created_at: minutesAgo(30),
      expires_at: '2099-01-01T00:00:00Z',
      closed_at: AT,
    })
    .execute();
  await db
    .insertInto('purchase_attempts')
    .values({
      id: attemptId,
      task_id: taskId,
      authorization_id: authId,
      device_id: deviceId,
      workflow_id: workflowId,
      status: 'RUNNING',
      step: 'submitting',
      timeline_json: '[]',
      started_at: minutesAgo(2 + busyMinutes),
    })
    .execute();
  await db
    .insertInto('order_submissions')
    .values({
      id: `sub-${taskId}`,
      task_id: taskId,
      authorization_id: authId,
      attempt_id: attemptId,
      status: 'SUBMITTED',
      gate1_unit_price_cent: amountCent,
      gate2_panel_total_cent: amountCent,
      quantity_read: 1,
      gate3_submit_amount_cent: amountCent,
      order_submitted_at: AT,
      pdd_order_no: `PDD-${taskId}`,
      created_at: AT,
    })
    .execute();
  await db
    .updateTable('tasks')
    .set({ status: 'WAITING_PAYMENT', device_id: deviceId, pdd_order_no: `PDD-${taskId}`, updated_at: AT })
    .where('task_id', '=', taskId)
    .execute();
  await db
    .updateTable('purchase_attempts')
    .set({ status: 'SUBMITTED', finished_at: AT })
    .where('id', '=', attemptId)
    .execute();
}

const dayRow = (): string => `[data-testid="overview-day-row"][data-date="${DAY}"]`;
const cell = (row: string, col: string): string =>
  `document.querySelector('${row} [data-col="${col}"]')?.textContent?.trim() ?? ''`;
const chartText = (testid: string): string =>
  `document.querySelector('[data-testid="${testid}"] svg')?.textContent ?? ''`;

test('a day of purchases, payments and stops: drawn as charts and told in the tables', async () => {
  const phone = await issueTestDevice(admin, '一号机');
  // 0.225 CNY per TWD, frozen into each purchase when it reaches 待付款
  expect((await api.put('/api/settings', { 'money.twd_to_cny_rate_ppm': 225_000 })).status).toBe(200);
  await orderLine(admin.db, 'line-coat', 100_000); // NT$1,000 → ¥225.00
  await orderLine(admin.db, 'line-tee', 50_000); // NT$500 → ¥112.50

  // the coat: bought for ¥260.00, waits for payment: a loss of ¥35.00
  await task(admin.db, 'live-coat', 'live', 'line-coat');
  await liveToWaitingPayment(admin.db, 'live-coat', phone.deviceId, 26_000, 10);
  // the tee: bought for ¥100.00 and paid: ¥12.50 earned
  await task(admin.db, 'live-tee', 'live', 'line-tee');
  await liveToWaitingPayment(admin.db, 'live-tee', phone.deviceId, 10_000, 5);
  await moveTo(admin.db, 'live-tee', 'SUCCEEDED');
  // a live stop before the tap, a dry run stopped by a price change, a dry run passed
  await task(admin.db, 'live-stop', 'live');
  await moveTo(admin.db, 'live-stop', 'NEEDS_MANUAL', 'GATE1_OVER_CAP');
  await task(admin.db, 'dry-stop', 'dry_run');
  await moveTo(admin.db, 'dry-stop', 'NEEDS_MANUAL', 'PRICE_CHANGED');
  await task(admin.db, 'dry-pass', 'dry_run');
  await moveTo(admin.db, 'dry-pass', 'DRY_RUN_PASSED');

  await page.goto(`${admin.url}/#/overview`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('page-overview').waitFor();
  // 概览 comes first in the navigation
  expect(await page.locator('nav .nav-link').first().getAttribute('data-testid')).toBe('nav-overview');

  // 近30天 by default: thirty rows, today's on top
  await page.locator(dayRow()).waitFor();
  expect(await page.getByTestId('overview-day-row').count()).toBe(30);
  expect(await page.getByTestId('overview-day-row').first().getAttribute('data-date')).toBe(DAY);
  expect(await page.getByTestId('overview-range-30').getAttribute('aria-pressed')).toBe('true');

  const want: Record<string, string> = {
    lines_in: '2',
    live_purchases: '2',
    waiting_payment_count: '2',
    waiting_payment_cny_cent: '¥360.00',
    paid_count: '1',
    paid_cny_cent: '¥100.00',
    dry_runs: '2',
    margin_cny_cent: '¥-22.50',
  };
  for (const [col, text] of Object.entries(want))
    expect([col, await page.evaluate<string>(cell(dayRow(), col))]).toEqual([col, text]);
  const stops = await page.evaluate<string>(cell(dayRow(), 'stops'));
  expect(stops).toContain('闸门一：单价 × 数量超过授权最高总价 × 1');
  expect(stops).toContain('下单过程中价格发生变化 × 1');
  // a loss is red
  expect(await page.locator(`${dayRow()} [data-col="margin_cny_cent"] span`).getAttribute('data-negative')).toBe(
    'true',
  );
  // the range's total: the other days had nothing to add
  expect(await page.evaluate<string>(cell('[data-testid="overview-day-total"]', 'margin_cny_cent'))).toBe('¥-22.50');
  expect(await page.getByTestId('overview-rate-hint').count()).toBe(0);

  // the phone: what is still to be paid on it, its purchases and its busy time
  const phoneRow = `[data-testid="overview-phone-row"][data-device-id="${phone.deviceId}"]`;
  expect(await page.locator(phoneRow).innerText()).toContain('一号机');
  expect(await page.evaluate<string>(cell(phoneRow, 'waiting_payment_count'))).toBe('1');
  expect(await page.evaluate<string>(cell(phoneRow, 'waiting_payment_cny_cent'))).toBe('¥260.00');
  expect(await page.evaluate<string>(cell(phoneRow, 'purchases'))).toBe('2');
  expect(await page.evaluate<string>(cell(phoneRow, 'busy_seconds'))).toBe('15分');

  // the charts are SVG with their words and figures as text (ECharts loads with the first chart)
  const purchases = await waitInPage<string>(page, chartText('overview-chart-purchases'), (t) =>
    t.includes('真实下单'),
  );
  expect(purchases).toContain('到达待付款');
  expect(purchases).toContain('当日毛利');
  expect(purchases).toMatch(/2/); // the day's bar labels
  const stopsChart = await waitInPage<string>(page, chartText('overview-chart-stops'), (t) => t.includes('闸门一'));
  expect(stopsChart).toContain('下单过程中价格发生变化');
  const phones = await waitInPage<string>(page, chartText('overview-chart-phones'), (t) => t.includes('一号机'));
  expect(phones).toContain('¥260.00（1笔）');
  expect(refused).toEqual([]);
  await page.screenshot({ path: `${rig.shotsDir}/overview.png`, fullPage: true });
});

test('订单 → 毛利: each line beside its cost, a loss in red, sorted by margin, exported for the books', async () => {
  await page.goto(`${admin.url}/#/orders`);
  await page.getByTestId('margin-panel').waitFor();
  const row = (id: string) => `[data-testid="margin-row"][data-syb-id="${id}"]`;
  await page.locator(row('line-coat')).waitFor();
  // the coat: ¥225.00 sold, ¥260.00 paid: −¥35.00, red; the tee earns ¥12.50
  expect(await page.locator(`${row('line-coat')} [data-testid="margin-value"]`).innerText()).toBe('¥-35.00');
  expect(await page.locator(`${row('line-coat')} [data-testid="margin-value"]`).getAttribute('class')).toContain(
    'form-error',
  );
  expect(await page.locator(`${row('line-tee')} [data-testid="margin-value"]`).innerText()).toBe('¥12.50');
  await page.getByTestId('margin-sort').selectOption('margin');
  await waitInPage<string | null>(
    page,
    `document.querySelector('[data-testid="margin-row"]')?.getAttribute('data-syb-id') ?? null`,
    (id) => id === 'line-coat',
  );
  await page.getByTestId('margin-loss').check();
  await waitInPage<number>(page, `document.querySelectorAll('[data-testid="margin-row"]').length`, (n) => n === 1);
  expect(await page.getByTestId('money-export-xlsx').getAttribute('href')).toMatch(
    /^\/api\/money\/export\.xlsx\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/,
  );
  await page.screenshot({ path: `${rig.shotsDir}/orders-margin.png`, fullPage: true });
  await page.goto(`${admin.url}/#/overview`);
  await page.getByTestId('page-overview').waitFor();
});

test('近7天 shows seven days; without an exchange rate the page says so', async () => {
  await page.getByTestId('overview-range-7').click();
  await waitForHash(page, '#/overview?days=7');
  await waitInPage<number>(
    page,
    `document.querySelectorAll('[data-testid="overview-day-row"]').length`,
    (n) => n === 7,
  );
  expect(await page.getByTestId('overview-from').inputValue()).toBe(
    new Date(Date.parse(`${DAY}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10),
  );
  expect(await page.getByTestId('overview-to').inputValue()).toBe(DAY);

  // the next poll (every 10 s) sees the rate cleared
  expect((await api.put('/api/settings', { 'money.twd_to_cny_rate_ppm': null })).status).toBe(200);
  await waitInPage<number>(
    page,
    `document.querySelectorAll('[data-testid="overview-rate-hint"]').length`,
    (n) => n === 1,
    20_000,
  );
  await waitForText(page, 'overview-rate-hint', '未设置汇率：毛利与人民币金额不计算');
});
