import type { Browser, Page } from 'playwright-core';
import { DEFAULT_HEALTH } from '../../sim/phone/health';
import { toUtcTimestamp } from '../../domain/time';
import { launchBrowser, waitInPage } from '../browser';
import { deviceRequest, TEST_ADMIN_PASSWORD } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';

/**
 * The 设备 page in a real browser (ui/dist must be built: `npx vite build --config
 * ui/vite.config.ts`): a real phone worker ran a dry run, so the task names its device; the
 * operator renames it, issues a new device (token shown once with the command) and revokes it;
 * an online phone that may not claim shows an amber chip with why; 暂停 / 恢复 / 吊销 ask first.
 * The tests run in order and share one page, as one operator's session would.
 */

jest.setTimeout(180_000);

let rig: PurchaseRig;
let browser: Browser;
let page: Page;
let taskId: string;

beforeAll(async () => {
  rig = await startPurchaseRig();
  taskId = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
  await rig.waitFor(taskId, ['DRY_RUN_PASSED', 'NEEDS_MANUAL']);
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

const REGISTRATION = { serial: 'browser-phone', model: 'Pixel 7', app_version: '8.17.0' };

function deviceRow(p: Page, deviceId: string) {
  return p.locator(`[data-testid="device-row"][data-device-id="${deviceId}"]`);
}

test('a device renamed on the 设备 page is shown by that name there and on its task', async () => {
  await page.goto(`${rig.admin.url}/#/devices`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await waitInPage<string>(page, 'window.location.hash', (h) => h === '#/devices', 30_000);

  const row = deviceRow(page, rig.device.deviceId);
  await row.getByTestId('device-display-name').getByText('purchase phone').waitFor();
  await row.locator('[data-testid="device-online"]', { hasText: '在线' }).waitFor();
  await row.getByTestId('device-rename').click();
  await page.getByTestId('device-rename-input').fill('');
  await page.getByTestId('device-rename-save').click();
  await page.getByTestId('error-device-rename').getByText('请输入设备名称').waitFor();
  await page.getByTestId('device-rename-input').fill('深圳-01');
  await page.getByTestId('device-rename-save').click();
  await page.getByTestId('device-rename-dialog').waitFor({ state: 'detached' });
  await row.getByTestId('device-display-name').getByText('深圳-01').waitFor();

  await page.goto(`${rig.admin.url}/#/tasks/${taskId}`);
  await page.getByTestId('task-device').getByText('深圳-01').waitFor();
  expect(await page.getByTestId('task-device').innerText()).not.toContain(rig.device.deviceId);
});

test('an online phone that takes no claim is amber with why (电量低, 存储不足), green again once healthy', async () => {
  await page.goto(`${rig.admin.url}/#/devices`);
  const row = deviceRow(page, rig.device.deviceId);
  const chip = row.getByTestId('device-online');
  await row.locator('[data-testid="device-online"][data-claim-block=""]', { hasText: '在线' }).waitFor();
  expect(await chip.textContent()).toBe('在线');
  // the worker reads the phone again at each status check while the admin refuses on its health
  rig.sim.phone(rig.serial).setHealth({ battery_level: 12, charging: false });
  const flat = { battery_level: 12, charging: 0, screen: 'on' as const, free_storage_mb: 20_000, app_version: null };
  await rig.admin.db
    .insertInto('device_health')
    .values({ device_id: rig.device.deviceId, ...flat, checked_at: toUtcTimestamp(new Date()) })
    .onConflict((oc) => oc.column('device_id').doUpdateSet({ ...flat, checked_at: toUtcTimestamp(new Date()) }))
    .execute();
  try {
    await row.locator('[data-testid="device-online"][data-claim-block="BATTERY_LOW"]').waitFor({ timeout: 30_000 });
    expect(await chip.textContent()).toBe('在线 · 电量低 12%');
    expect(await chip.getAttribute('class')).toContain('tk-tone-attention');
    expect(await chip.getAttribute('title')).toBe('不领取任务：电量过低且未充电');

    rig.sim.phone(rig.serial).setHealth({ battery_level: 80, charging: true, free_storage_mb: 300 });
    await row.locator('[data-testid="device-online"][data-claim-block="STORAGE_LOW"]').waitFor({ timeout: 30_000 });
    expect(await chip.textContent()).toBe('在线 · 存储不足');
  } finally {
    rig.sim.phone(rig.serial).setHealth(DEFAULT_HEALTH);
  }
  await row.locator('[data-testid="device-online"][data-claim-block=""]').waitFor({ timeout: 30_000 });
  expect(await chip.textContent()).toBe('在线');
  expect(await chip.getAttribute('class')).toContain('tk-tone-ok');
});

test('issuing a device in the UI shows its token once, with the command for the phone host, and the token works', async () => {
  // the command takes 设置's 管理服务对外地址, never the address this browser uses
  expect((await rig.op.put('/api/settings', { 'admin.public_url': 'https://buy.example.com' })).status).toBe(200);
  await page.goto(`${rig.admin.url}/#/devices`);
  await page.getByTestId('device-issue').click();
  await page.getByTestId('device-issue-name').fill('东莞-02');
  await page.getByTestId('device-issue-submit').click();
  const deviceId = (await page.getByTestId('device-issued-id').innerText()).trim();
  const token = (await page.getByTestId('device-issued-token').innerText()).trim();
  expect(deviceId).toMatch(/^[0-9a-f-]{36}$/);
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  const command = (await page.getByTestId('device-issued-command').innerText()).trim();
  expect(command).toContain(`device_id=${deviceId}\ntoken=${token}\nTOKEN`);
  expect(command).toContain(`CMAUTOBUY_TEMPORAL_NAMESPACE=${rig.admin.namespace} \\`);
  expect(command).toMatch(
    new RegExp(
      `npm run device-worker -- --device-id ${deviceId} --serial <adb serial> --token-file \\S+ --admin-url https://buy\\.example\\.com$`,
    ),
  );
  expect(
    await page.getByTestId('device-issued-need').evaluateAll((ps) => ps.map((p) => p.getAttribute('data-need'))),
    // (and repository-url where this checkout has no origin)
  ).toEqual(expect.arrayContaining(['temporal-on-loopback', 'payload-keys', 'adb-serial']));
  await page.getByTestId('device-issued').getByText('令牌只显示这一次').waitFor();

  await page.getByTestId('device-issue-close').click();
  const row = deviceRow(page, deviceId);
  await row.getByTestId('device-display-name').getByText('东莞-02').waitFor();
  expect(await page.content()).not.toContain(token);

  const auth = { authorization: `Bearer ${deviceId}.${token}` };
  expect((await deviceRequest(rig.admin, auth, 'POST', '/api/device/register', { body: REGISTRATION })).status).toBe(
    200,
  );
  // its worker has not reported the read-screen agent yet; the next report names it (the page polls every 10 s)
  expect(await row.getByTestId('device-agent').textContent()).toBe('读屏代理：不可用（未上报）');
  const agent = { state: 'unavailable', reason: 'not installed' };
  const status = await deviceRequest(rig.admin, auth, 'POST', '/api/device/status', {
    body: { adb_connected: true, agent },
  });
  expect(status.status).toBe(200);
  // the worker's reason is engineers' text: folded under 技术详情
  await row.getByTestId('device-agent-reason').waitFor({ timeout: 30_000 });
  expect(await row.getByTestId('device-agent').textContent()).toBe('读屏代理：不可用（改用系统读屏）');
  expect(await row.getByTestId('device-agent-reason').locator('code').textContent()).toBe('not installed');

  // revoke it from the same page: a confirmation first (返回 keeps it), then the row is gone and the token dead
  await row.getByTestId('device-revoke').click();
  await page.getByTestId('device-revoke-dialog').getByText('东莞-02').waitFor();
  await page.getByTestId('device-revoke-dialog-back').click();
  await page.getByTestId('device-revoke-dialog').waitFor({ state: 'detached' });
  expect((await deviceRequest(rig.admin, auth, 'POST', '/api/device/register', { body: REGISTRATION })).status).toBe(
    200,
  );
  await row.getByTestId('device-revoke').click();
  await page.getByTestId('device-revoke-dialog-confirm').click();
  await row.waitFor({ state: 'detached' });
  expect((await deviceRequest(rig.admin, auth, 'POST', '/api/device/register', { body: REGISTRATION })).status).toBe(
    401,
  );
  // the phone that was renamed is still there
  await deviceRow(page, rig.device.deviceId).waitFor();
});

test('暂停 and 恢复 ask first, naming the phone (返回 changes nothing); 暂停 puts a phone on 需处理 with its reason and 恢复 clears it; a phone gone from ADB shows 离线; 拼多多版本 says why 发布 is not offered', async () => {
  const row = deviceRow(page, rig.device.deviceId);
  const audited = async () =>
    (
      await rig.admin.db
        .selectFrom('audit_log')
        .select('action')
        .where('target_id', '=', rig.device.deviceId)
        .where('action', 'in', ['device.pause', 'device.resume'])
        .orderBy('id')
        .execute()
    ).map((a) => a.action);
  await row.getByTestId('device-pause').click();
  await page.getByTestId('device-pause-dialog').getByText('深圳-01').first().waitFor();
  await page.getByTestId('device-pause-dialog-back').click();
  await page.getByTestId('device-pause-dialog').waitFor({ state: 'detached' });
  expect(await row.getAttribute('data-attention')).toBe('');
  expect(await audited()).toEqual([]);
  await row.getByTestId('device-pause').click();
  await page.getByTestId('device-pause-dialog-confirm').click();
  await page
    .locator(`[data-testid="device-row"][data-device-id="${rig.device.deviceId}"][data-attention="PAUSED_BY_OPERATOR"]`)
    .waitFor();
  expect(await row.getByTestId('device-attention-badge').textContent()).toBe('需处理');
  expect(await row.getByTestId('device-attention-reason').textContent()).toContain('操作员已暂停');
  await row.getByTestId('device-resume').click();
  await page.getByTestId('device-resume-dialog').getByText('深圳-01').first().waitFor();
  await page.getByTestId('device-resume-dialog-back').click();
  await page.getByTestId('device-resume-dialog').waitFor({ state: 'detached' });
  expect(await row.getAttribute('data-attention')).toBe('PAUSED_BY_OPERATOR');
  expect(await audited()).toEqual(['device.pause']);
  await row.getByTestId('device-resume').click();
  await page.getByTestId('device-resume-dialog-confirm').click();
  await page
    .locator(`[data-testid="device-row"][data-device-id="${rig.device.deviceId}"][data-attention=""]`)
    .waitFor();
  await row.getByTestId('device-pause').waitFor();
  expect(await audited()).toEqual(['device.pause', 'device.resume']);

  // the worker still polls Temporal, but the phone is gone from ADB: 离线 (the page refreshes itself)
  rig.sim.phone(rig.serial).setFaults({ disconnect_after_commands: 0 });
  try {
    await page
      .locator(`[data-testid="device-row"][data-device-id="${rig.device.deviceId}"][data-online="false"]`)
      .waitFor({ timeout: 60_000 });
    expect(await row.getByTestId('device-online').textContent()).toBe('离线');
  } finally {
    rig.sim.phone(rig.serial).clearFaults();
  }

  // the rig released 8.17.0; a version no worker has a profile for cannot be released
  const auth = { authorization: rig.device.authorization };
  expect(
    (
      await deviceRequest(rig.admin, auth, 'POST', '/api/device/register', {
        body: { serial: rig.serial, model: 'sim', app_version: '9.0.0', capabilities: [] },
      })
    ).status,
  ).toBe(200);
  await page.getByTestId('nav-tasks').click();
  await page.getByTestId('nav-devices').click();
  const released = page.locator('[data-testid="app-version-row"][data-app-version="8.17.0"]');
  expect(await released.getAttribute('data-released')).toBe('true');
  const fresh = page.locator('[data-testid="app-version-row"][data-app-version="9.0.0"]');
  expect(await fresh.getAttribute('data-released')).toBe('false');
  expect(await fresh.getByTestId('app-version-release').isDisabled()).toBe(true);
  expect(await fresh.getByTestId('app-version-release-blocked').textContent()).toContain('没有这个版本的页面配置');
});
