import type { Locator, Page } from 'playwright-core';
import { startBrowserRig, waitForHash, type BrowserRig } from '../browser';
import { skusJson } from '../catalog/helpers';
import { TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * 优先级 in a real browser against a real admin: set on the new-task form, shown on the task page
 * and in the list (only where it is not 普通), stored on the task, and changed by editing the
 * draft. ui/dist must be built (`npx vite build --config ui/vite.config.ts`). The tests share one page.
 */

const GOODS_ID = '223456789013';
const GOODS_URL = `https://mobile.yangkeduo.com/goods.html?goods_id=${GOODS_ID}`;

let rig: BrowserRig;
let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
const ids: { high?: string; plain?: string } = {};

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
  // collected goods (written as the collect stores it): the form buys only these
  const now = '2026-08-07T08:00:00Z';
  await admin.db
    .insertInto('pdd_products')
    .values({
      goods_id: GOODS_ID,
      url: GOODS_URL,
      title: '蓝色外套',
      collect_status: 'collected',
      collected_at: now,
      skus_json: JSON.stringify(skusJson(GOODS_ID, [{ color: '蓝色', size: 'M', price_cent: 2590 }])),
      created_at: now,
      updated_at: now,
    })
    .execute();
});

afterAll(async () => {
  await rig?.close();
});

function taskRow(taskId: string): Locator {
  return page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
}

async function storedPriority(taskId: string): Promise<{ priority: number; version: number }> {
  const got = await api.get(`/api/tasks/${taskId}`);
  expect(got.status).toBe(200);
  return got.body as { priority: number; version: number };
}

test('a new task is saved with the 优先级 picked on the form; its page and the list show it', async () => {
  await page.goto(`${admin.url}/#/tasks/new`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('task-form').waitFor();
  // 普通 unless the operator picks another level
  expect(await page.getByTestId('field-priority').inputValue()).toBe('0');
  expect(await page.getByTestId('field-priority').locator('option').allTextContents()).toEqual([
    '最高',
    '较高',
    '普通',
    '较低',
    '最低',
  ]);

  await page.getByTestId('field-url').fill(GOODS_URL);
  await page.getByTestId('option-pickers').waitFor();
  await page.locator('[data-dimension="颜色分类"]').selectOption('蓝色');
  await page.locator('[data-dimension="尺码"]').selectOption('M');
  await page.getByTestId('field-max-price').fill('30');
  await page.getByTestId('field-priority').selectOption({ label: '较高' });
  await page.getByTestId('task-form-submit').click();
  await waitForHash(page, /^#\/tasks\?created=/);
  ids.high = /已保存草稿 (\S+)/.exec((await page.getByTestId('task-notice').textContent()) ?? '')?.[1];
  expect(ids.high).toBeDefined();
  expect(await storedPriority(ids.high!)).toMatchObject({ priority: 1, version: 1 });

  // a draft at 普通 beside it: the list tags only the one out of the ordinary line
  const plain = await api.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: GOODS_URL,
    pdd_options: { 颜色分类: '蓝色', 尺码: 'M' },
    quantity: 1,
    max_total_price_cent: 3000,
  });
  expect(plain.status).toBe(201);
  ids.plain = (plain.body as { task_id: string }).task_id;
  await page.getByTestId('task-refresh').click();
  await taskRow(ids.plain).waitFor();
  expect(await taskRow(ids.high!).getByTestId('task-priority-tag').textContent()).toBe('优先级较高');
  expect(await taskRow(ids.high!).getByTestId('task-priority-tag').getAttribute('data-priority')).toBe('1');
  expect(await taskRow(ids.plain).getByTestId('task-priority-tag').count()).toBe(0);

  await taskRow(ids.high!).getByTestId('task-link').click();
  await page.locator(`[data-testid="page-task-detail"][data-task-id="${ids.high!}"]`).waitFor();
  await page.getByTestId('task-priority').filter({ hasText: '较高' }).waitFor();
  expect(await page.getByTestId('task-priority').getAttribute('data-priority')).toBe('1');
});

test('editing the draft changes its 优先级: a new version with the new level, shown on its page', async () => {
  await page.getByTestId('action-edit').click();
  await waitForHash(page, /\/edit$/);
  await page.locator('[data-testid="task-form"][data-ready="ready"]').waitFor();
  // the form opens with the draft's level, not the default
  expect(await page.getByTestId('field-priority').inputValue()).toBe('1');
  await page.getByTestId('field-priority').selectOption({ label: '最低' });
  await page.getByTestId('task-form-submit').click();
  await page.locator(`[data-testid="page-task-detail"][data-task-id="${ids.high!}"]`).waitFor();
  await page.getByTestId('task-priority').filter({ hasText: '最低' }).waitFor();
  expect(await page.getByTestId('task-priority').getAttribute('data-priority')).toBe('-2');
  expect(await storedPriority(ids.high!)).toMatchObject({ priority: -2, version: 2 });

  // the ordinary draft's page says 普通, and the list now tags the edited one 最低
  await page.goto(`${admin.url}/#/tasks/${ids.plain!}`);
  await page.getByTestId('task-priority').filter({ hasText: '普通' }).waitFor();
  expect(await page.getByTestId('task-priority').getAttribute('data-priority')).toBe('0');
  await page.getByTestId('nav-tasks').click();
  await taskRow(ids.high!).getByTestId('task-priority-tag').filter({ hasText: '优先级最低' }).waitFor();
  expect(await taskRow(ids.plain!).getByTestId('task-priority-tag').count()).toBe(0);
});
