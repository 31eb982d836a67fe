import type { Browser, Page } from 'playwright-core';
import { launchBrowser, waitInPage } from '../browser';
import { TEST_ADMIN_PASSWORD } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';

/**
 * The release gate up front and no silent wait, in a real browser (ui/dist must be built: `npx
 * vite build --config ui/vite.config.ts`): the operator withdraws the phone's PDD version with a
 * confirmation, sees 发布 name the dry run it rests on, then meets the warning on 复制为真实下单,
 * on the task list and in the live confirm; a started task no phone takes names the phone and why,
 * and shows no phone. The tests run in order and share one page.
 */

jest.setTimeout(180_000);

let rig: PurchaseRig;
let browser: Browser;
let page: Page;
let dryRun: string;

beforeAll(async () => {
  rig = await startPurchaseRig();
  dryRun = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
  expect((await rig.waitFor(dryRun, ['DRY_RUN_PASSED', 'NEEDS_MANUAL'])).status).toBe('DRY_RUN_PASSED');
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

const versionRow = (p: Page) => p.locator('[data-testid="app-version-row"][data-app-version="8.17.0"]');

test('撤回发布 asks first, then the version is unreleased; 发布 names the dry run it rests on', async () => {
  await page.goto(`${rig.admin.url}/#/devices`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await waitInPage<string>(page, 'window.location.hash', (h) => h === '#/devices', 30_000);

  await versionRow(page).and(page.locator('[data-released="true"]')).waitFor();
  await versionRow(page).getByTestId('app-version-withdraw').click();
  const withdraw = page.getByTestId('app-version-withdraw-dialog');
  await withdraw.getByText('提交订单').waitFor();
  await page.getByTestId('app-version-withdraw-dialog-confirm').click();
  await withdraw.waitFor({ state: 'detached' });
  await versionRow(page).and(page.locator('[data-released="false"]')).waitFor();

  await versionRow(page).getByTestId('app-version-release').click();
  const release = page.getByTestId('app-version-release-dialog');
  await release.getByText(`试运行任务 ${dryRun}`).waitFor();
  await page.getByTestId('app-version-release-dialog-back').click();
  await release.waitFor({ state: 'detached' });
  await versionRow(page).and(page.locator('[data-released="false"]')).waitFor();
});

test('复制为真实下单 leads to the warning: on the list, on the live row, in the live confirm and on the draft', async () => {
  await page.goto(`${rig.admin.url}/#/tasks/${dryRun}`);
  await page.getByTestId('action-copy-live').click();
  await waitInPage<string>(page, 'window.location.hash', (h) => h.startsWith('#/tasks?created='), 30_000);
  await page.getByTestId('task-notice').getByText('草稿提示').waitFor();
  const gate = page.getByTestId('task-live-gate');
  await gate.getByText('8.17.0（purchase phone）').waitFor();
  expect(await gate.getAttribute('data-code')).toBe('APP_VERSION_NOT_RELEASED');
  const copy = decodeURIComponent(/created=([^&]+)/.exec(await page.evaluate<string>('window.location.hash'))![1]!);
  const row = page.locator(`[data-testid="task-row"][data-task-id="${copy}"]`);
  await row.getByTestId('task-live-warning').waitFor();

  // the copy is picked: 开始采购's confirmation says it too, and going back starts nothing
  await page.getByTestId('start-selected').click();
  const warning = page.getByTestId('start-live-warning');
  await warning.getByText('8.17.0').waitFor();
  expect(await warning.getAttribute('data-code')).toBe('APP_VERSION_NOT_RELEASED');
  await page.getByTestId('start-cancel').click();
  await page.getByTestId('start-dialog').waitFor({ state: 'detached' });

  await page.goto(`${rig.admin.url}/#/tasks/${copy}`);
  await page.locator('[data-testid="draft-warning"][data-code="APP_VERSION_NOT_RELEASED"]').waitFor();
  await page.getByTestId('app-version-link').first().waitFor();
  expect((await rig.task(copy)).status).toBe('DRAFT');
});

test('a started task no phone takes names the phone and why, and shows no phone', async () => {
  expect((await rig.op.post(`/api/devices/${rig.device.deviceId}/pause`)).status).toBe(200);
  const waiting = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
  await page.goto(`${rig.admin.url}/#/tasks/${waiting}`);
  const phone = page.locator(`[data-testid="waiting-phone"][data-device-id="${rig.device.deviceId}"]`);
  await phone.getByText('purchase phone：操作员已暂停').waitFor();
  expect(await phone.getAttribute('data-reason')).toBe('DEVICE_PAUSED');
  await page.locator('[data-testid="draft-warning"][data-code="NO_PHONE_CAN_CLAIM"]').waitFor();
  await page.getByTestId('task-device').getByText('等待手机领取').waitFor();
  expect((await rig.task(waiting)).status).toBe('PENDING');
});
