import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { addUser } from '../../admin/auth/users';
import { API_ERROR_CODES } from '../../domain/api-errors';
import { SCREEN_PAINTED, startBrowserRig, waitForText, waitInPage, type BrowserRig } from '../browser';
import { getJson, TEST_ADMIN_PASSWORD } from '../harness';
import { startHostRig, type HostRig } from '../phone-host/host-rig';
import { operatorSteps, until } from '../phone-host/operator-steps';
import { releaseAppVersionInTestDb } from '../purchase/setup';

/**
 * Taking a phone over from the admin, in Chromium (ui/dist must be built: `npm run build:ui`): a
 * phone of a real phone host stops on a slider during a dry run; 需处理 lists the phone and the
 * task, each with its 屏幕; the operator opens the live screen, 接管, drags the slider on the
 * canvas as a hand would, presses 处理完毕，继续, and the phone buys again. A second operator
 * watching meanwhile sees who holds it and is refused 接管; the first one's 退出 frees the phone.
 */
jest.setTimeout(600_000);
const TRIES = 2_400;
const SERIAL = 'take-ui';
const SECOND = { username: 'operator2', password: 'operator2-password-1' };

let rig: BrowserRig;
let host: HostRig;
let deviceId: string;
let page: Page;
let second: BrowserContext | undefined;
const steps = operatorSteps(
  () => rig.api,
  () => rig.admin.db,
  TRIES,
);
const challenge = async () =>
  (await getJson(`http://127.0.0.1:${host.sim.controlPort}/devices/${SERIAL}/challenge`)).body as {
    page: string;
    drag_to: [number, number];
  } | null;

async function logIn(p: Page, hash: string, who = { username: 'admin', password: TEST_ADMIN_PASSWORD }) {
  await p.goto(`${rig.admin.url}/#${hash}`);
  await p.getByTestId('login-username').fill(who.username);
  await p.getByTestId('login-password').fill(who.password);
  await p.getByTestId('login-submit').click();
  await waitInPage<string>(p, 'window.location.hash', (h) => h === `#${hash}`, 30_000);
}

beforeAll(async () => {
  rig = await startBrowserRig();
  page = rig.page;
  await releaseAppVersionInTestDb(rig.admin);
  host = await startHostRig(rig.admin, rig.api, [SERIAL]);
  deviceId = host.devices.get(SERIAL) as string;
  await addUser(rig.admin.db, { kind: 'system', name: 'test' }, SECOND.username, SECOND.password);
}, 300_000);
afterAll(async () => {
  await second?.close();
  await host?.close();
  await rig?.close();
});

/**
 * The browser's Notification, recorded: headless Chromium shows none, and the page must ask for
 * the permission only when 开启通知 is clicked.
 */
const FAKE_NOTIFICATION = `
  window.__asked = 0;
  window.__notes = [];
  window.Notification = class {
    static permission = 'default';
    static async requestPermission() { window.__asked++; this.permission = 'granted'; return 'granted'; }
    constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
    close() {}
  };
`;

test('a phone stopped on a slider: 需处理 → 屏幕 → 接管 → drag → 处理完毕，继续; a second operator only watches', async () => {
  // 需处理 open before the stop: nothing asked on load; 开启通知 asks once
  await page.addInitScript(FAKE_NOTIFICATION);
  await logIn(page, '/attention');
  await page.getByTestId('attention-empty').waitFor();
  expect(await page.evaluate<number>('window.__asked')).toBe(0);
  await page.getByTestId('attention-notify').click();
  await waitForText(page, 'attention-notify-state', '已开启通知');

  const phone = host.sim.phone(SERIAL);
  phone.setFaults({ captcha_on: 'open' });
  const stopped = await steps.dryRun();
  expect(await steps.waitFor(stopped, ['NEEDS_MANUAL', 'FAILED', 'DRY_RUN_PASSED'])).toMatchObject({
    status: 'NEEDS_MANUAL',
    reason_code: 'CAPTCHA_REQUIRED',
  });
  phone.clearFaults();

  // the page reads the queue again by itself: the phone and its task, each with a way to its screen
  const phoneRow = page.locator(`[data-testid="attention-row"][data-kind="device"][data-id="${deviceId}"]`);
  const taskRow = page.locator(`[data-testid="attention-row"][data-kind="task"][data-id="${stopped}"]`);
  await phoneRow.waitFor();
  await taskRow.waitFor();
  const notes = await waitInPage<Array<{ title: string }>>(page, 'window.__notes', (n) => n.length >= 2);
  expect(notes.map((n) => n.title.slice(0, 6)).sort()).toEqual(['需处理：任务', '需处理：手机']);
  const screenHref = `#/devices/${deviceId}/screen`;
  expect(await taskRow.getByTestId('attention-screen-link').getAttribute('href')).toBe(screenHref);
  await phoneRow.getByTestId('attention-screen-link').click();
  await page.getByTestId('page-device-screen').waitFor();
  expect(await waitInPage<number>(page, SCREEN_PAINTED, (n) => n > 50, 30_000)).toBeGreaterThan(50);
  expect(await page.getByTestId('screen-path').textContent()).toBe('高速画面');
  await waitForText(page, 'screen-fps', '每秒');
  await page.getByTestId('screen-attention').waitFor();
  // Chinese only: the raw path stays folded under 技术详情; the phone's name is the simulator's
  const shown = await page.getByTestId('page-device-screen').innerText();
  const name = (await page.getByTestId('screen-title').innerText()).replace('手机屏幕：', '');
  expect(shown.replace(name, '').match(/[A-Za-z]{2,}/g)).toBeNull();

  // 接管, then the slider dragged on the canvas from the thumb to the gap, slowly, as a hand would
  await page.getByTestId('screen-take').click();
  await waitForText(page, 'screen-holder', '你正在操作这台手机');
  await page.getByTestId('screen-idle-release').waitFor();
  await page.screenshot({ path: path.join(rig.shotsDir, 'take-over.png') });
  const gap = (await challenge())?.drag_to;
  expect(gap).toBeDefined();
  const canvas = page.getByTestId('screen-canvas');
  const box = (await canvas.boundingBox())!;
  const size = await page.evaluate<{ w: number; h: number }>(
    `(() => { const c = document.querySelector('[data-testid="screen-canvas"]'); return { w: c.width, h: c.height }; })()`,
  );
  const at = (x: number, y: number) => ({ x: box.x + (x / size.w) * box.width, y: box.y + (y / size.h) * box.height });
  const from = at(200, 1120);
  const to = at(gap![0], gap![1]);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) {
    await page.mouse.move(from.x + ((to.x - from.x) * i) / 20, from.y + ((to.y - from.y) * i) / 20);
    await page.waitForTimeout(60);
  }
  await page.mouse.up();
  await until(challenge, (c) => c === null, 'the slider solved', 200);
  const swipe = await rig.admin.db
    .selectFrom('audit_log')
    .select('details_json')
    .where('action', '=', 'device.input')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(JSON.parse(swipe.details_json ?? '{}')).toMatchObject({ kind: 'swipe', x1: 200, y1: 1120 });
  expect(JSON.parse(swipe.details_json ?? '{}').ms).toBeGreaterThanOrEqual(1_000);

  // a second operator watches: sees who holds the phone, and is refused 接管
  second = await rig.browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
  const other = await second.newPage();
  await logIn(other, '/devices', SECOND);
  const row = other.locator(`[data-testid="device-row"][data-device-id="${deviceId}"]`);
  expect(await row.getByTestId('device-held').innerText()).toBe('人工操作中（admin）');
  await row.getByTestId('device-screen-link').click();
  await other.getByTestId('page-device-screen').waitFor();
  await waitForText(other, 'screen-holder', '正由 admin 操作中');
  await other.getByTestId('screen-take').click();
  await waitForText(other, 'screen-hold-error', API_ERROR_CODES.DEVICE_HELD);

  // 处理完毕，继续: the phone's fresh read finds the slider gone and the stop clears
  await page.getByTestId('screen-resume').click();
  await waitForText(page, 'screen-resume-notice', '已恢复');
  await page.getByTestId('screen-attention').waitFor({ state: 'detached' });

  // 退出 releases the hold: the second operator sees the phone free
  await page.getByTestId('logout').click();
  await page.getByTestId('login-username').waitFor();
  await waitForText(other, 'screen-holder', '没有人接管');
  expect(
    ((await rig.api.get('/api/devices')).body as Array<{ device_id: string; held_by: string | null }>).find(
      (d) => d.device_id === deviceId,
    )?.held_by,
  ).toBeNull();

  const after = await steps.dryRun();
  expect(await steps.waitFor(after, ['NEEDS_MANUAL', 'FAILED', 'DRY_RUN_PASSED'])).toMatchObject({
    status: 'DRY_RUN_PASSED',
    device_id: deviceId,
  });
});
