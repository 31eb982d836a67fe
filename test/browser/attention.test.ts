import type { Page } from 'playwright-core';
import { setAttention } from '../../admin/devices/attention';
import { startBrowserRig, waitForText, type BrowserRig } from '../browser';
import { deviceRequest, issueTestDevice, TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * 需处理 in a real browser (ui/dist must be built: `npm test` does it; by hand
 * `npx vite build --config ui/vite.config.ts`): a logged-out phone and a stopped task, oldest
 * first, each with a way to it, and their count beside 需处理 in the navigation.
 */
let admin: TestAdmin;
let api: OperatorClient;
let page: Page;
let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
});
afterAll(async () => {
  await rig?.close();
});

test('lists the phone and the task that wait, and the navigation counts them', async () => {
  const phone = await issueTestDevice(admin, '一号机');
  await setAttention(admin.db, phone.deviceId, 'LOGIN_REQUIRED');
  await admin.db
    .updateTable('device_attention')
    .set({ since: '2026-08-07T08:00:00Z' })
    .where('device_id', '=', phone.deviceId)
    .execute();
  await admin.db
    .insertInto('tasks')
    .values({
      task_id: 'stop-gate1',
      task_type: 'purchase',
      status: 'NEEDS_MANUAL',
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=990001',
      pdd_goods_id: '990001',
      pdd_options: JSON.stringify({ 颜色分类: '黑色', 尺码: 'M' }),
      quantity: 1,
      max_total_price_cent: 500,
      execution_mode: 'dry_run',
      title: '羊毛大衣',
      reason_code: 'GATE1_OVER_CAP',
      created_at: '2026-08-07T07:00:00Z',
      updated_at: '2026-08-07T08:01:00Z',
    })
    .execute();
  expect((await api.get('/api/attention')).status).toBe(200);

  await page.goto(`${admin.url}/#/attention`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('page-attention').waitFor();
  await page.getByTestId('attention-row').first().waitFor();

  const rows = page.getByTestId('attention-row');
  expect(
    await rows.evaluateAll((els) => els.map((e) => [e.getAttribute('data-kind'), e.getAttribute('data-id')])),
  ).toEqual([
    ['device', phone.deviceId],
    ['task', 'stop-gate1'],
  ]);
  expect(await rows.nth(0).innerText()).toContain('一号机');
  expect(await rows.nth(1).innerText()).toContain('闸门一：单价 × 数量超过授权最高总价');
  expect(await rows.nth(1).getByTestId('attention-link').getAttribute('href')).toBe('#/tasks/stop-gate1');
  await waitForText(page, 'nav-attention-count', '2');

  // 处理完毕，继续 on a phone without a worker waits for its read; once the phone reads clean it
  // leaves the page and the count
  expect((await api.post(`/api/devices/${phone.deviceId}/resume`)).status).toBe(202);
  const read = await deviceRequest(admin, phone, 'POST', '/api/device/resume-check', {
    body: { ok: true, page: 'home' },
  });
  expect(read.status).toBe(200);
  await page.reload();
  await page.getByTestId('attention-row').first().waitFor();
  expect(await rows.count()).toBe(1);
  await waitForText(page, 'nav-attention-count', '1');
});
