import type { BrowserContext, Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { launchBrowser, waitInPage } from '../browser';
import { TEST_ADMIN_PASSWORD } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';

/**
 * 采购任务 → 待付款 in a real browser (ui/dist must be built): two live orders on the simulated
 * phone, listed under the phone with its PDD account and their sum, marked paid together after a
 * confirm naming the count and the sum, then the look at the phone — the order still unpaid there
 * shown in red.
 */
jest.setTimeout(240_000);

let rig: PurchaseRig;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  rig = await startPurchaseRig();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await rig?.close();
});

test('待付款 lists the orders by phone with the sum to pay, and 标记已付款 marks the picked ones at once', async () => {
  const one = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
  const two = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
  for (const id of [one, two])
    expect((await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL'])).status).toBe('WAITING_PAYMENT');

  // the PDD account the phone is logged in as is said on 设备
  await page.goto(`${rig.admin.url}/#/devices`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  const device = page.locator(`[data-testid="device-row"][data-device-id="${rig.device.deviceId}"]`);
  await device.getByTestId('device-rename').click();
  await page.getByTestId('device-pdd-account-input').fill('买家小王');
  await page.getByTestId('device-rename-save').click();
  await page.getByTestId('device-rename-dialog').waitFor({ state: 'detached' });
  await device.getByTestId('device-pdd-account').getByText('拼多多账号：买家小王').waitFor();

  await page.goto(`${rig.admin.url}/#/tasks?status=WAITING_PAYMENT`);

  const group = page.locator(`[data-testid="pay-group"][data-device-id="${rig.device.deviceId}"]`);
  await waitInPage<number>(page, `document.querySelectorAll('[data-testid="pay-row"]').length`, (n) => n === 2, 30_000);
  expect(await group.getByTestId('pay-group-phone').textContent()).toBe('purchase phone');
  expect(await group.getByTestId('pay-group-account').textContent()).toContain('买家小王');
  expect(await group.getByTestId('pay-group-count').textContent()).toBe('2');
  // the confirmed amounts (¥12.88 + ¥32.76), not the caps (¥20 + ¥40)
  expect(await group.getByTestId('pay-group-sum').textContent()).toBe('¥45.64');
  const row = (id: string) => page.locator(`[data-testid="pay-row"][data-task-id="${id}"]`);
  expect(await row(one).getByTestId('pay-amount').textContent()).toBe('¥12.88');
  const orderOne = (await row(one).getByTestId('pay-order-no').textContent())!;
  expect(orderOne).toBe(rig.orders().find((o) => o.quantity === 1)?.order_no);

  // one of the two was paid on the phone; the other was not, yet both are marked
  const paidOnPhone = rig.orders().find((o) => o.quantity === 2);
  if (paidOnPhone) paidOnPhone.status = 'payment_started';

  await group.getByTestId('pay-select-group').check();
  expect(await page.getByTestId('pay-selected-count').textContent()).toBe('2');
  await page.getByTestId('pay-mark').click();
  const summary = await page.getByTestId('pay-dialog-summary').textContent();
  expect(summary).toContain('2');
  expect(summary).toContain('¥45.64');
  await page.getByTestId('pay-confirm').click();
  await page.getByTestId('pay-dialog').waitFor({ state: 'detached' });
  expect(await page.getByTestId('pay-notice').textContent()).toContain('已标记 2 笔');
  await page.getByTestId('pay-empty').waitFor();

  // the look at the phone: the order still unpaid there is shown in red with its number
  const check = page.locator(`[data-testid="pay-check-row"][data-task-id="${one}"] [data-testid="pay-check"]`);
  await page
    .locator(`[data-testid="pay-check-row"][data-task-id="${one}"] [data-status="mismatch"]`)
    .waitFor({ timeout: 60_000 });
  expect(await check.textContent()).toContain(orderOne);
  expect(await check.getAttribute('class')).toContain('tk-pay-check-bad');
  for (const id of [one, two]) expect((await rig.task(id)).status).toBe('SUCCEEDED');
});
