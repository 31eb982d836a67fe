import type { Page } from 'playwright-core';
import { startBrowserRig, waitInPage, type BrowserRig } from '../browser';
import { TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * 设置 in a real browser against a real admin (ui/dist must be built: `npm test` does it; by hand
 * `npx vite build --config ui/vite.config.ts`): the safety settings in 元 and whole numbers, the
 * Chinese refusal that saves nothing, and the 顺运宝 account whose password is never shown.
 */
let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
});
afterAll(async () => {
  await rig?.close();
});

const setting = (key: string) => page.getByTestId(`setting-${key}`);

async function openSettings(): Promise<void> {
  await page.goto(`${admin.url}/#/settings`);
  await waitInPage<string>(page, 'window.location.hash', (h) => h === '#/login' || h === '#/settings', 30_000);
  if ((await page.evaluate<string>('window.location.hash')) === '#/login') {
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
    await page.getByTestId('login-submit').click();
  }
  await page.getByTestId('page-settings').waitFor();
  await setting('safety.max_quantity').waitFor();
}

test('shows the defaults, the tolerance in 元', async () => {
  await openSettings();
  expect(await setting('safety.max_quantity').inputValue()).toBe('10');
  expect(await setting('safety.price_tolerance_cent').inputValue()).toBe('5.00');
  expect(await setting('purchase.authorization_ttl_minutes').inputValue()).toBe('60');
  expect(await setting('diagnostics.retention_days').inputValue()).toBe('14');
});

test('a value out of range is refused in Chinese and nothing is saved', async () => {
  await setting('safety.max_quantity').fill('0');
  await setting('safety.price_tolerance_cent').fill('1.505');
  await page.getByTestId('settings-save').click();
  expect(await page.getByTestId('error-safety.max_quantity').textContent()).toContain(
    '单次采购数量上限须在 1–99 件 之间',
  );
  expect(await page.getByTestId('error-safety.price_tolerance_cent').textContent()).toContain('两位小数');
  expect((await api.get('/api/settings')).body).toMatchObject({
    values: { 'safety.max_quantity': 10, 'safety.price_tolerance_cent': 500 },
  });
  expect(
    await admin.db.selectFrom('app_settings').select('setting_key').where('setting_key', 'like', 'safety.%').execute(),
  ).toEqual([]);
});

test('saving stores cents and whole numbers, audited old → new, and survives a reload', async () => {
  await setting('safety.max_quantity').fill('3');
  await setting('safety.price_tolerance_cent').fill('1.5');
  await setting('purchase.authorization_ttl_minutes').fill('30');
  await page.getByTestId('settings-save').click();
  await page.getByText('已保存，立即生效').waitFor();
  expect((await api.get('/api/settings')).body).toEqual({
    values: {
      'safety.max_quantity': 3,
      'safety.price_tolerance_cent': 150,
      'purchase.authorization_ttl_minutes': 30,
      'diagnostics.retention_days': 14,
      'hosts.max_pending_phones': 32,
      'devices.hold_idle_minutes': 5,
      'syb.sync_max_lines': 20_000,
      'syb.sync_max_mb': 200,
      'syb.sync_max_pages': 200,
      'money.platform_fee_bp': 0,
      'money.line_fee_cny_cent': 0,
      'money.twd_to_cny_rate_ppm': null,
      'money.min_margin_bp': null,
      'admin.public_url': null,
    },
    invalid: [],
  });
  const audit = await admin.db
    .selectFrom('audit_log')
    .select('details_json')
    .where('action', '=', 'settings.set')
    .execute();
  expect(audit.map((a) => JSON.parse(a.details_json ?? 'null'))).toEqual([
    {
      changes: {
        'safety.max_quantity': { old: 10, new: 3 },
        'safety.price_tolerance_cent': { old: 500, new: 150 },
        'purchase.authorization_ttl_minutes': { old: 60, new: 30 },
      },
    },
  ]);

  await page.reload();
  await setting('safety.max_quantity').waitFor();
  expect(await setting('safety.max_quantity').inputValue()).toBe('3');
  expect(await setting('safety.price_tolerance_cent').inputValue()).toBe('1.50');
});

test('the 顺运宝 account: a bad address is refused in Chinese; the password is set, shown only as 已设置, never sent back', async () => {
  expect(await page.getByTestId('syb-password-state').textContent()).toBe('未设置');
  expect(await page.getByTestId('syb-state').getAttribute('data-configured')).toBe('false');

  await page.getByTestId('syb-url').fill('ftp://syb.invalid');
  await page.getByTestId('syb-save').click();
  expect(await page.getByTestId('error-syb-url').textContent()).toContain('http://');
  expect((await api.get('/api/syb/settings')).body).toMatchObject({ url: null });

  const secret = 'syb-secret-pass-123';
  await page.getByTestId('syb-url').fill('http://127.0.0.1:9/');
  await page.getByTestId('syb-username').fill('运营甲');
  await page.getByTestId('syb-password').fill(secret);
  await page.getByTestId('syb-save').click();
  await page.getByText('已保存，下次同步起生效').waitFor();
  expect(await page.getByTestId('syb-password-state').textContent()).toBe('已设置');
  expect(await page.getByTestId('syb-password').inputValue()).toBe('');
  expect(await page.getByTestId('syb-state').getAttribute('data-configured')).toBe('true');

  const view = await api.get('/api/syb/settings');
  expect(view.body).toMatchObject({
    url: 'http://127.0.0.1:9/',
    username: '运营甲',
    password_set: true,
    configured: true,
  });
  expect(JSON.stringify(view.body)).not.toContain(secret);
  expect(JSON.stringify(await admin.db.selectFrom('app_settings').selectAll().execute())).not.toContain(secret);

  // A reload shows the address and user name again, the password only as set.
  await page.reload();
  await page.getByTestId('syb-url').waitFor();
  await waitInPage<string>(
    page,
    `document.querySelector('[data-testid="syb-url"]').value`,
    (v) => v === 'http://127.0.0.1:9/',
  );
  expect(await page.getByTestId('syb-password-state').textContent()).toBe('已设置');
  expect(await page.getByTestId('syb-password').inputValue()).toBe('');
  expect(await page.content()).not.toContain(secret);
});

test('a login refused for too many failures says how many minutes to wait', async () => {
  await page.getByTestId('logout').click();
  await page.getByTestId('login-form').waitFor();
  // a spray of made-up names from this address (admin/auth/login-throttle.ts): refused until the
  // oldest failure leaves the quarter-hour window
  let refused = false;
  for (let i = 0; i < 30 && !refused; i++) {
    const res = await fetch(`${admin.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `nobody${i}`, password: 'not-the-password' }),
    });
    refused = res.status === 429;
  }
  expect(refused).toBe(true);
  await page.getByTestId('login-username').fill('nobody');
  await page.getByTestId('login-password').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  const error = page.getByTestId('login-error');
  await error.waitFor();
  expect(await error.textContent()).toMatch(/登录已暂时锁定：请 1[45] 分钟后再试/u);
});
