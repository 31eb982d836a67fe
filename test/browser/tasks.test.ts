import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startBrowserRig, waitForHash, waitInPage, type BrowserRig } from '../browser';
import { skusJson } from '../catalog/helpers';
import { collectedInTestDb } from '../collected';
import {
  issueTestDevice,
  loginOperator,
  sharedTemporal,
  TEST_ADMIN_PASSWORD,
  type OperatorClient,
  type TestAdmin,
} from '../harness';

/**
 * The operator's purchase flow in a real browser against a real admin (ui/dist must be built:
 * `npm test` does it; by hand run `npx vite build --config ui/vite.config.ts` first).
 * No phone is attached, so a started task stays 待领取 until it is cancelled.
 * The tests run in order and share one page, as one operator's session would.
 */

const GOODS_URL = 'https://mobile.yangkeduo.com/goods.html?goods_id=123456789012';
/** a goods a phone collected (written as the collect stores it): the form buys only these */
const COLLECTED_ID = '123456789013';
const COLLECTED_URL = `https://mobile.yangkeduo.com/goods.html?goods_id=${COLLECTED_ID}`;
/** the phone simulator's reference goods, collected (test/collected.ts) for the drafts made through the API */
const SIM_GOODS = { id: '937122477375', options: { 颜色分类: '黑色', 尺码: 'M' } };
const SIM_GOODS_URL = `https://mobile.yangkeduo.com/goods.html?goods_id=${SIM_GOODS.id}`;

let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
let shotsDir: string;

/** Task ids the tests create, by role. */
const ids: { form?: string; live?: string } = {};

let rig: BrowserRig;
beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page, shotsDir } = rig);
  const now = '2026-08-07T08:00:00Z';
  await admin.db
    .insertInto('pdd_products')
    .values({
      goods_id: COLLECTED_ID,
      url: COLLECTED_URL,
      title: '红色外套',
      collect_status: 'collected',
      collected_at: now,
      skus_json: JSON.stringify(
        skusJson(COLLECTED_ID, [
          { color: '红色', size: 'XL', price_cent: 3090 },
          { color: '红色', size: 'L', price_cent: null },
        ]),
      ),
      created_at: now,
      updated_at: now,
    })
    .execute();
  await collectedInTestDb(admin.db, SIM_GOODS.id);
});

afterAll(async () => {
  await rig?.close();
});

// Expressions as strings: the tests' tsconfig has no DOM types, and they run in the page anyway.
async function hash(p: Page): Promise<string> {
  return p.evaluate<string>('window.location.hash');
}

async function logIn(p: Page): Promise<void> {
  await p.getByTestId('login-username').fill('admin');
  await p.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await p.getByTestId('login-submit').click();
}

function row(p: Page, taskId: string): Locator {
  return p.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
}

async function waitForRowStatus(p: Page, taskId: string, status: string): Promise<void> {
  await p.locator(`[data-testid="task-row"][data-task-id="${taskId}"][data-status="${status}"]`).waitFor();
}

test('an unauthenticated visit goes to login and, after logging in, to the page asked for; health is ok', async () => {
  await page.goto(`${admin.url}/#/tasks`);
  await waitForHash(page, '#/login');
  await page.getByTestId('login-form').waitFor();
  await logIn(page);
  await waitForHash(page, '#/tasks');
  await page.getByTestId('page-tasks').waitFor();
  await page.locator('[data-testid="health"][data-state="ok"]').first().waitFor();
  expect(await page.getByTestId('current-user').textContent()).toBe('admin');
});

test('the form refuses a cap with three decimals, a bad link, goods never collected and an option without a price, then saves a dry-run draft of collected goods', async () => {
  await page.getByTestId('task-new').click();
  await waitForHash(page, '#/tasks/new');
  // Dry run is the default; live needs an explicit choice and shows a warning.
  expect(await page.getByTestId('mode-dry-run').isChecked()).toBe(true);
  expect(await page.getByTestId('mode-live-warning').count()).toBe(0);
  await page.getByTestId('mode-live').check();
  await page.getByTestId('mode-live-warning').waitFor();
  await page.getByTestId('mode-dry-run').check();

  await page.getByTestId('field-url').fill('https://mobile.yangkeduo.com/goods.html?id=1');
  await page.getByTestId('option-name').first().fill('颜色');
  await page.getByTestId('option-value').first().fill('红色');
  await page.getByTestId('option-add').click();
  await page.getByTestId('option-name').nth(1).fill('尺码');
  await page.getByTestId('option-value').nth(1).fill('XL');
  await page.getByTestId('field-quantity').fill('2');
  await page.getByTestId('field-max-price').fill('59.905');
  await page.getByTestId('task-form-submit').click();
  expect(await page.getByTestId('error-max_total_price_cent').textContent()).toContain('两位小数');

  await page.getByTestId('field-max-price').fill('59.9');
  await page.getByTestId('task-form-submit').click();
  // The client only checks that a link is there; the server finds no goods_id in it.
  await page.getByTestId('error-pdd_goods_url').waitFor();
  expect(await page.getByTestId('error-pdd_goods_url').textContent()).toContain('商品 ID');
  expect(await hash(page)).toBe('#/tasks/new');

  // goods no phone has collected: refused by the form itself (NOT_COLLECTED)
  await page.getByTestId('field-url').fill(GOODS_URL);
  await page.locator('[data-testid="task-form"][data-ready="ready"]').waitFor();
  await page.getByTestId('task-form-submit').click();
  await page.getByTestId('error-pdd_goods_url').getByText('还没有采集结果').waitFor();
  expect(await hash(page)).toBe('#/tasks/new');

  // collected goods: options are picked from the collect; a combination without a price is refused
  await page.getByTestId('field-url').fill(COLLECTED_URL);
  await page.getByTestId('option-pickers').waitFor();
  await page.locator('[data-dimension="颜色分类"]').selectOption('红色');
  await page.locator('[data-dimension="尺码"]').selectOption('L');
  await page.getByTestId('task-form-submit').click();
  await page.getByTestId('error-pdd_options').getByText('没有读到价格').waitFor();
  await page.locator('[data-dimension="尺码"]').selectOption('XL');
  await page.getByTestId('task-form-submit').click();
  await waitForHash(page, /^#\/tasks\?created=/);
  const notice = await page.getByTestId('task-notice').textContent();
  ids.form = /已保存草稿 (\S+)/.exec(notice ?? '')?.[1];
  expect(ids.form).toBeDefined();
  // saved with a warning (below): the list says so at once
  expect(notice).toContain('有 1 条草稿提示');
  const r = row(page, ids.form!);
  await r.waitFor();
  expect(await r.getAttribute('data-status')).toBe('DRAFT');
  expect(await r.getByTestId('task-status').textContent()).toBe('草稿');
  expect(await r.getByTestId('task-cap').textContent()).toBe('¥59.90');

  // What the server stored: cents from the string, options in order, dry run.
  const stored = await api.get(`/api/tasks/${ids.form!}`);
  expect(stored.body).toMatchObject({
    max_total_price_cent: 5990,
    quantity: 2,
    execution_mode: 'dry_run',
    pdd_options: { 颜色分类: '红色', 尺码: 'XL' },
  });

  // the draft page: 草稿提示 for a cap under collected price × quantity (¥30.90 × 2 > ¥59.90)
  await r.getByTestId('task-link').click();
  await page.getByTestId('draft-warnings').waitFor();
  expect(await page.getByTestId('draft-warning').getAttribute('data-code')).toBe('CAP_BELOW_COLLECTED_PRICE');
  expect(await page.getByTestId('draft-warning').textContent()).toContain('¥30.90 × 数量 2 = ¥61.80');
  await page.getByTestId('back-to-tasks').click();
  await row(page, ids.form!).waitFor();
});

test('selecting drafts shows the count and the exact sum; a 409 lists the refused task and starts nothing', async () => {
  // A live draft whose cap would show float error if added as yuan (0.1 + 0.2).
  const created = await api.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: SIM_GOODS_URL,
    pdd_options: SIM_GOODS.options,
    quantity: 1,
    max_total_price_cent: 30,
    execution_mode: 'live',
  });
  expect(created.status).toBe(201);
  ids.live = (created.body as { task_id: string }).task_id;
  await page.getByTestId('task-refresh').click();
  await row(page, ids.live).waitFor();

  // Only drafts have a checkbox.
  await row(page, ids.form!).getByTestId('task-select').check();
  await row(page, ids.live).getByTestId('task-select').check();
  expect(await page.getByTestId('selection-count').textContent()).toBe('2');
  expect(await page.getByTestId('selection-sum').textContent()).toBe('¥60.20');

  await page.getByTestId('start-selected').click();
  const dialog = page.getByTestId('start-dialog');
  await dialog.waitFor();
  expect(await dialog.getByTestId('start-dialog-summary').textContent()).toContain('2');
  expect(await dialog.getByTestId('start-dialog-summary').textContent()).toContain('¥60.20');
  expect(await dialog.getByTestId('start-live-count').textContent()).toBe('1');
  expect(await dialog.getByTestId('start-dry-count').textContent()).toBe('1');

  // Someone else cancels the live draft meanwhile (its version moves on): the start must be
  // refused as a whole, naming that task.
  expect((await api.post(`/api/tasks/${ids.live}/cancel`)).status).toBe(200);
  await dialog.getByTestId('start-confirm').click();
  const refusal = dialog.locator(`[data-testid="start-refusal"][data-task-id="${ids.live}"]`);
  await refusal.waitFor();
  expect(await refusal.getAttribute('data-code')).toBe('VERSION_CONFLICT');
  expect(await refusal.textContent()).toContain('请刷新后重试');
  expect(((await api.get(`/api/tasks/${ids.form!}`)).body as { status: string }).status).toBe('DRAFT');

  await dialog.getByTestId('start-cancel').click();
  await waitForRowStatus(page, ids.live, 'CANCELED');
  expect(await row(page, ids.live).getByTestId('task-select').count()).toBe(0);
  expect(await row(page, ids.live).getByTestId('task-row-reason').textContent()).toBe('操作员取消');
  // The cancelled task leaves the selection; the other stays picked.
  expect(await page.getByTestId('selection-count').textContent()).toBe('1');
  expect(await page.getByTestId('selection-sum').textContent()).toBe('¥59.90');
  // the tabs count what is in them, as the admin's counts say
  const counts = ((await api.get('/api/tasks/counts')).body as { counts: Record<string, number> }).counts;
  expect(counts).toMatchObject({ DRAFT: 1, CANCELED: 1 });
  await waitInPage<string>(
    page,
    `document.querySelector('[data-testid="status-count-CANCELED"]')?.textContent ?? ''`,
    (t) => t === String(counts.CANCELED),
    15_000,
  );
  expect(await page.getByTestId('status-count-DRAFT').textContent()).toBe(String(counts.DRAFT));
  expect(await page.getByTestId('status-count-ALL').textContent()).toBe(
    String(Object.values(counts).reduce((a, b) => a + b, 0)),
  );
  expect(await page.getByTestId('status-count-FAILED').count()).toBe(0);

  const shot = path.join(shotsDir, 'task-list.png');
  await page.screenshot({ path: shot, fullPage: true });
  process.stderr.write(`task list screenshot: ${shot}\n`);
});

test('starting the draft makes it 待领取 with no phone attached, and the detail page says what happens next', async () => {
  await page.getByTestId('start-selected').click();
  await page.getByTestId('start-dialog').waitFor();
  expect(await page.getByTestId('start-live-count').textContent()).toBe('0');
  await page.getByTestId('start-confirm').click();
  await page.getByTestId('start-dialog').waitFor({ state: 'detached' });
  await waitForRowStatus(page, ids.form!, 'PENDING');
  expect(await row(page, ids.form!).getByTestId('task-status').textContent()).toBe('待领取');
  expect(await row(page, ids.form!).getByTestId('task-select').count()).toBe(0);
  expect(await page.getByTestId('selection-count').textContent()).toBe('0');

  await row(page, ids.form!).getByTestId('task-link').click();
  await waitForHash(page, `#/tasks/${ids.form!}`);
  await page.getByTestId('next-step-text').waitFor();
  expect(await page.getByTestId('next-step-text').textContent()).toContain('等待空闲手机领取');
  expect(await page.getByTestId('page-task-detail').getByTestId('task-status').textContent()).toBe('待领取');
  // the Temporal UI this test's admin was started with, never a fixed port
  // the workflow id is for engineers: folded under 技术详情
  expect(await page.getByTestId('workflow-link').isVisible()).toBe(false);
  // the link's address comes with the UI config, which the page asks for once, beside the task
  const href = await waitInPage<string | null>(
    page,
    `document.querySelector('[data-testid="workflow-link"]')?.getAttribute('href') ?? null`,
    (h) => h !== null,
  );
  expect(href).toMatch(
    new RegExp(`^${sharedTemporal().uiUrl ?? '(none)'}/namespaces/${admin.namespace}/workflows/purchase%2F`),
  );
  // PENDING offers cancel and nothing that belongs to later states.
  expect(await page.getByTestId('action-cancel').count()).toBe(1);
  expect(await page.getByTestId('action-mark-paid').count()).toBe(0);
  expect(await page.getByTestId('action-reset').count()).toBe(0);
  expect(await page.getByTestId('gate-gate1').getAttribute('data-verdict')).toBe('pending');
});

test('an expired session sends the operator to login and, after logging in, back to the task they were on', async () => {
  await admin.db.deleteFrom('sessions').execute();
  api = await loginOperator(admin); // the API client's session went with the others
  // The detail page polls every 3 s; the first 401 must send the operator to login.
  await waitForHash(page, '#/login');
  await logIn(page);
  await waitForHash(page, `#/tasks/${ids.form!}`);
  await page.getByTestId('next-step-text').waitFor();
});

test('cancelling from the detail page ends the task as 已取消', async () => {
  await page.getByTestId('action-cancel').click();
  await page.getByTestId('confirm-dialog').waitFor();
  await page.getByTestId('confirm-dialog-confirm').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
  // A refusal would be shown here; name it so a failure says why.
  expect(await page.getByTestId('action-error').allTextContents()).toEqual([]);
  await page
    .locator('[data-testid="page-task-detail"] [data-testid="task-status"][data-status="CANCELED"]')
    .waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('page-task-detail').getByTestId('task-status').textContent()).toBe('已取消');
  expect(await page.getByTestId('action-cancel').count()).toBe(0);
  expect(((await api.get(`/api/tasks/${ids.form!}`)).body as { status: string }).status).toBe('CANCELED');
});

test('a task whose workflow was terminated by hand: the page says so in Chinese and 未创建 (no fence reached) sends it back to 草稿', async () => {
  const created = await api.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: SIM_GOODS_URL,
    pdd_options: SIM_GOODS.options,
    quantity: 1,
    max_total_price_cent: 1000,
    execution_mode: 'dry_run',
  });
  const { task_id, version } = created.body as { task_id: string; version: number };
  expect((await api.post('/api/tasks/start', { tasks: [{ task_id, version }] })).status).toBe(200);
  const workflowId = ((await api.get(`/api/tasks/${task_id}`)).body as { workflow_id: string }).workflow_id;
  await (await admin.temporal.client()).workflow.getHandle(workflowId).terminate('terminated by hand in a test');

  await page.goto(`${admin.url}/#/tasks/${task_id}`);
  await page.getByTestId('workflow-closed').waitFor();
  expect(await page.getByTestId('workflow-closed').getAttribute('data-workflow-status')).toBe('TERMINATED');
  expect(await page.getByTestId('workflow-closed').locator('p').textContent()).toContain('工作流已结束');
  expect(await page.getByTestId('workflow-closed').locator('p').textContent()).not.toMatch(/TERMINATED|围栏/);
  expect(await page.getByTestId('action-cancel').count()).toBe(0);
  await page.getByTestId('action-resolve-not-created').click();
  await page.getByTestId('confirm-dialog').waitFor();
  await page.getByTestId('confirm-dialog-confirm').click();
  await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
  expect(await page.getByTestId('action-error').allTextContents()).toEqual([]);
  await page
    .locator('[data-testid="page-task-detail"] [data-testid="task-status"][data-status="DRAFT"]')
    .waitFor({ timeout: 30_000 });
  expect(((await api.get(`/api/tasks/${task_id}`)).body as { status: string }).status).toBe('DRAFT');

  // back at 草稿, it is started from its own page (开始采购), with the list's confirmation
  await page.getByTestId('action-start').click();
  await page.getByTestId('start-dialog').waitFor();
  expect(await page.getByTestId('start-dry-count').textContent()).toBe('1');
  await page.getByTestId('start-confirm').click();
  await page
    .locator('[data-testid="page-task-detail"] [data-testid="task-status"][data-status="PENDING"]')
    .waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('action-start').count()).toBe(0);
  expect(((await api.get(`/api/tasks/${task_id}`)).body as { status: string }).status).toBe('PENDING');
});

test('the devices page lists a registered phone as offline; the settings self-check round-trips through Temporal', async () => {
  const device = await issueTestDevice(admin, '测试手机');
  await page.getByTestId('nav-devices').click();
  const deviceRow = page.locator(`[data-testid="device-row"][data-device-id="${device.deviceId}"]`);
  await deviceRow.waitFor();
  expect(await deviceRow.getAttribute('data-online')).toBe('false');
  expect(await deviceRow.getByTestId('device-online').textContent()).toBe('离线');

  await page.getByTestId('nav-settings').click();
  // both forms above the button load their data first; a click while they grow would miss it
  await page.getByTestId('setting-safety.max_quantity').waitFor();
  await page.getByTestId('syb-state').waitFor();
  await page.getByTestId('system-check').click();
  await page
    .locator('[data-testid="system-check-result"], [data-testid="system-check-error"]')
    .first()
    .waitFor({ timeout: 60_000 });
  expect(await page.getByTestId('system-check-error').allTextContents()).toEqual([]);
  expect(await page.getByTestId('system-check-workflow').textContent()).toMatch(/^system-check\//);
  expect(await page.getByTestId('system-check-db').textContent()).toContain('正常');
});
