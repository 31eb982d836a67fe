import type { Page } from 'playwright-core';
import { issueHostCredential } from '../../admin/auth/host-credentials';
import type { DeviceView } from '../../domain/devices';
import { startBrowserRig, waitInPage, type BrowserRig } from '../browser';
import { deviceRequest, TEST_ADMIN_PASSWORD } from '../harness';

/**
 * 设备 with a phone host (ui/dist must be built): a phone its host reported waits as 待批准 with
 * its model, serial, PDD version and host by name; 批准 (asked first) makes it active; a low
 * battery shows as the reason it takes no claim; 拒绝 (asked first) removes a phone; 添加手机主机
 * shows the host id and token once.
 */
jest.setTimeout(180_000);

let rig: BrowserRig;
let page: Page;
let host: { authorization: string };

const row = (p: Page, serial: string) => p.locator(`[data-testid="device-row"]`, { hasText: serial });

beforeAll(async () => {
  rig = await startBrowserRig();
  page = rig.page;
  const issued = await issueHostCredential(rig.admin.db, { kind: 'system', name: 'test' }, '机房-1');
  host = { authorization: `Bearer ${issued.hostId}.${issued.token}` };
  for (const serial of ['ui-phone-1', 'ui-phone-2'])
    expect(
      (
        await deviceRequest(rig.admin, host, 'POST', '/api/host/phones', {
          body: { serial, model: 'Redmi Note 11', android_version: '12', app_version: '8.17.0' },
        })
      ).status,
    ).toBe(200);
});
afterAll(async () => {
  await rig?.close();
});

test('待批准 → 批准, health and the reason a phone takes no claim; 拒绝 removes a phone', async () => {
  await page.goto(`${rig.admin.url}/#/devices`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await waitInPage<string>(page, 'window.location.hash', (h) => h === '#/devices', 30_000);

  const one = row(page, 'ui-phone-1');
  await one.getByTestId('device-pending').getByText('待批准').waitFor();
  await one.getByText('Redmi Note 11 · ui-phone-1').first().waitFor();
  await one.getByRole('cell', { name: '8.17.0' }).waitFor();
  // the host by the name it was issued under, never its id
  expect(await one.getByTestId('device-host').textContent()).toBe('主机「机房-1」');
  // a pending phone's one red button is 拒绝, set apart; 吊销 would revoke the same credential
  expect(await one.locator('.tk-btn-danger').count()).toBe(1);
  await one.getByTestId('device-approve').click();
  await page.getByTestId('device-approve-dialog').getByText('ui-phone-1').first().waitFor();
  await page.getByTestId('device-approve-dialog-back').click();
  await page.getByTestId('device-approve-dialog').waitFor({ state: 'detached' });
  expect(await one.getAttribute('data-state')).toBe('pending');
  await one.getByTestId('device-approve').click();
  await page.getByTestId('device-approve-dialog-confirm').click();
  await page.locator('[data-testid="device-row"][data-state="active"]', { hasText: 'ui-phone-1' }).waitFor();
  const views = (await rig.api.get('/api/devices')).body as DeviceView[];
  const approved = views.find((d) => d.serial === 'ui-phone-1')!;
  expect(approved.state).toBe('active');

  // the host's next health reading: 9 %, not charging
  const health = await deviceRequest(rig.admin, host, 'PUT', `/api/host/phones/${approved.device_id}/health`, {
    body: { battery_level: 9, charging: false, screen: 'on', free_storage_mb: 20_000 },
  });
  expect(health.body).toEqual({ refusal: 'LOW_BATTERY' });
  await page.reload();
  await one
    .getByTestId('device-health')
    .getByText(/电量 9%/)
    .waitFor();
  await one
    .getByTestId('device-claim-block')
    .getByText(/电量低于 15%/)
    .waitFor();

  await row(page, 'ui-phone-2').getByTestId('device-reject').click();
  await page.getByTestId('device-reject-dialog-back').click();
  await page.getByTestId('device-reject-dialog').waitFor({ state: 'detached' });
  expect(await row(page, 'ui-phone-2').getAttribute('data-state')).toBe('pending');
  await row(page, 'ui-phone-2').getByTestId('device-reject').click();
  await page.getByTestId('device-reject-dialog').getByText('ui-phone-2').first().waitFor();
  await page.getByTestId('device-reject-dialog-confirm').click();
  await row(page, 'ui-phone-2').waitFor({ state: 'detached' });
  expect(((await rig.api.get('/api/devices')).body as DeviceView[]).map((d) => d.serial)).toEqual(['ui-phone-1']);
});

test('添加手机主机 shows the host id and token once, with the command to run once 管理服务对外地址 is set', async () => {
  const issue = async (name: string): Promise<void> => {
    await page.getByTestId('host-issue').click();
    await page.getByTestId('host-issue-name').fill(name);
    await page.getByTestId('host-issue-submit').click();
    const text = await page.getByTestId('host-issued-token').innerText();
    expect(text).toMatch(/^host_id=[0-9a-f-]{36}\ntoken=[0-9a-f]{64}$/);
  };
  // unset: no command (the address this browser uses is loopback), a way to 设置 instead
  await issue('深圳-机房2');
  await page.getByTestId('host-issued-no-public-url').waitFor();
  expect(await page.getByTestId('host-issued-settings-link').getAttribute('href')).toBe('#/settings');
  await page.getByTestId('host-issue-close').click();

  expect((await rig.api.put('/api/settings', { 'admin.public_url': 'https://admin.example.com' })).status).toBe(200);
  await issue('深圳-机房3');
  const run = (await page.getByTestId('host-issued-command').innerText()).trim();
  expect(run).toContain('CMAUTOBUY_ADMIN_PUBLIC_URL=https://admin.example.com \\');
  expect(run).toMatch(/npm run phone-host -- --token-file "\$HOME\/\.cmautobuy\/host-[0-9a-f]{8}\.token"$/);
  expect(run).not.toContain('PAYLOAD_KEYS');
  expect(await page.getByTestId('host-issued-install').innerText()).toContain('npm ci');
  await page.locator('[data-testid="host-issued-need"][data-need="temporal-on-loopback"]').waitFor();
  await page.getByTestId('host-issue-close').click();
  const hosts = (await rig.api.get('/api/hosts')).body as Array<{ display_name: string }>;
  // two issued within one second: the list's order between them is not the test's business
  expect(hosts.map((h) => h.display_name).sort()).toEqual(['机房-1', '深圳-机房2', '深圳-机房3'].sort());
});
