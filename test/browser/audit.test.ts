import type { Page } from 'playwright-core';
import { recordAudits } from '../../admin/audit/audit';
import { startBrowserRig, waitForHash, waitInPage, type BrowserRig } from '../browser';
import { issueTestDevice, TEST_ADMIN_PASSWORD, type TestAdmin } from '../harness';

/**
 * 审计日志 in a real browser (ui/dist must be built: `npm test` does it; by hand
 * `npx vite build --config ui/vite.config.ts`): the rows in Chinese, newest first, filtered by a
 * task and by a phone, a task's row leading to its page, long details folded until opened.
 */
let admin: TestAdmin;
let page: Page;
let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, page } = rig);
});
afterAll(async () => {
  await rig?.close();
});

const rows = () => page.getByTestId('audit-row');
const texts = async (testid: string) => page.getByTestId(testid).allTextContents();

/** Until the table shows exactly these 操作, top to bottom (a new filter's rows replace the old). */
async function showsActions(expected: string[]): Promise<void> {
  const read = `JSON.stringify([...document.querySelectorAll('[data-testid="audit-action"]')].map((e) => e.textContent))`;
  await waitInPage<string>(page, read, (seen) => seen === JSON.stringify(expected));
}

test('filters by a task and by a phone; a task row opens the task', async () => {
  const phone = await issueTestDevice(admin, '审计一号机');
  const alice = { kind: 'operator', name: 'alice' } as const;
  await recordAudits(admin.db, alice, [
    { action: 'task.create', target: { kind: 'task', id: 'audit-t1' }, details: { quantity: 1 } },
  ]);
  await recordAudits(admin.db, alice, [{ action: 'task.create', target: { kind: 'task', id: 'audit-t2' } }]);
  await recordAudits(admin.db, alice, [
    {
      action: 'task.start',
      target: { kind: 'task', id: 'audit-t1' },
      details: { authorization_id: '5d0c1c55-7a0e-4c31-9a51-5b8d8e0f7a11', max_total_price_cent: 2000, quantity: 1 },
    },
  ]);
  await recordAudits(admin.db, alice, [
    { action: 'device.pause', target: { kind: 'device', id: phone.deviceId }, details: { reason_code: 'OPERATOR' } },
  ]);

  await page.goto(`${admin.url}/#/overview`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('nav-audit').click();
  await page.getByTestId('page-audit').waitFor();
  await rows().first().waitFor();
  // newest first, in Chinese: this browser's login came last
  expect((await texts('audit-action')).slice(0, 5)).toEqual([
    '登录',
    '暂停手机',
    '开始采购',
    '创建采购草稿',
    '创建采购草稿',
  ]);
  expect((await texts('audit-actor'))[0]).toBe('admin');

  await page.getByTestId('audit-filter-task').fill('audit-t1');
  await page.getByTestId('audit-filter-task').press('Enter');
  await waitForHash(page, '#/audit?task_id=audit-t1');
  await showsActions(['开始采购', '创建采购草稿']);
  expect(await texts('audit-actor')).toEqual(['alice', 'alice']);
  expect(await texts('audit-target')).toEqual(['任务 audit-t1', '任务 audit-t1']);

  // the start's details are long: folded to one line, opened in place
  const start = rows().first();
  expect(await start.getByTestId('audit-details').textContent()).toMatch(/…$/u);
  await start.getByTestId('audit-details-toggle').click();
  expect(await start.getByTestId('audit-details').textContent()).toContain('"max_total_price_cent": 2000');
  expect(await start.getByTestId('audit-details-toggle').textContent()).toBe('收起');

  // 操作 narrows within the task
  await page.getByTestId('audit-filter-action').selectOption('task.create');
  await waitForHash(page, '#/audit?action=task.create&task_id=audit-t1');
  await showsActions(['创建采购草稿']);
  expect(await rows().first().getByTestId('audit-details').textContent()).toBe('{"quantity":1}');

  // a phone: by its name, the row names it too
  await page.getByTestId('audit-filter-task').fill('');
  await page.getByTestId('audit-filter-task').press('Enter');
  await page.getByTestId('audit-filter-action').selectOption('');
  await page.getByTestId('audit-filter-phone').selectOption({ label: '审计一号机' });
  await waitForHash(page, `#/audit?device_id=${phone.deviceId}`);
  // its pause, and adding it (issueTestDevice writes what `device issue` does)
  await showsActions(['暂停手机', '添加手机']);
  expect(await texts('audit-target')).toEqual(['手机 审计一号机', '手机 审计一号机']);

  // back to the task, and from its row to its page
  await page.goto(`${admin.url}/#/audit?task_id=audit-t2`);
  await showsActions(['创建采购草稿']);
  await rows().first().getByTestId('audit-target-link').click();
  await waitForHash(page, '#/tasks/audit-t2');
});
