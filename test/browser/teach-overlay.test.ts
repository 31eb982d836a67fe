import type { Page } from 'playwright-core';
import { API_ERROR_CODES } from '../../domain/api-errors';
import { startBrowserRig, waitForHash, waitForText, type BrowserRig } from '../browser';
import { deviceRequest, issueTestDevice, TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * 教弹窗 in a real browser (ui/dist must be built: `npm run build:ui`): under 设备 → 拼多多版本 an
 * operator teaches a popup, is refused a close button that accepts (立即领取), teaches one that
 * closes, enables it (审核启用) and retires it (停用), and the API agrees at every step. A task
 * stopped at an unrecognised popup links to its phone's screen with the dialog already open.
 */
let admin: TestAdmin;
let api: OperatorClient;
let page: Page;
let rig: BrowserRig;

const VERSION = '8.17.0';

interface Overlay {
  id: number;
  name: string;
  entry: unknown;
  taught_by: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
}

async function overlays(): Promise<Overlay[]> {
  const res = await api.get(`/api/app-versions/${VERSION}/overlays`);
  expect(res.status).toBe(200);
  return (res.body as { overlays: Overlay[] }).overlays;
}

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
  // the rig's admin has no phones: the version a phone would have reported
  await admin.db
    .insertInto('app_versions')
    .values({ app_version: VERSION, first_seen_at: '2026-08-07T08:00:00Z' })
    .onConflict((oc) => oc.column('app_version').doNothing())
    .execute();
});
afterAll(async () => {
  await rig?.close();
});

test('teach a popup under 拼多多版本: an accepting button is refused, a closing one waits for 审核启用, then 停用', async () => {
  await page.goto(`${admin.url}/#/devices`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  const block = page.locator(`[data-testid="taught-overlays"][data-app-version="${VERSION}"]`);
  await block.getByTestId('taught-overlays-empty').waitFor();

  // a close button that takes the coupon is the admin's to refuse, in Chinese
  await block.getByTestId('overlay-teach-open').click();
  const dialog = page.getByTestId('teach-overlay-dialog');
  await dialog.getByTestId('teach-overlay-next').click();
  expect(await dialog.getByTestId('teach-overlay-form-error').textContent()).toContain('名称只能用英文小写字母');
  await dialog.getByTestId('teach-overlay-name').fill('coupon_popup');
  await dialog.getByTestId('teach-overlay-lines').fill('恭喜获得优惠券\n\n 限时专享 \n');
  await dialog.getByTestId('teach-overlay-close').fill('立即领取');
  await dialog.getByTestId('teach-overlay-next').click();
  expect(await dialog.getByTestId('teach-overlay-check-signature').allTextContents()).toEqual([
    '文字为「恭喜获得优惠券」',
    '文字为「限时专享」',
  ]);
  await dialog.getByTestId('teach-overlay-submit').click();
  await dialog.getByTestId('teach-overlay-error').waitFor();
  const refusal = await dialog.getByTestId('teach-overlay-error').textContent();
  expect(refusal).toContain(API_ERROR_CODES.OVERLAY_INVALID);
  expect(refusal).toContain('关闭它的按钮');
  expect(await overlays()).toEqual([]);

  // the × the app draws, by its description and kind
  await dialog.getByTestId('teach-overlay-edit').click();
  await dialog.getByTestId('teach-overlay-close-by').selectOption('content_desc');
  await dialog.getByTestId('teach-overlay-close').fill('关闭');
  await dialog.getByTestId('teach-overlay-class').selectOption('android.widget.ImageView');
  await dialog.getByTestId('teach-overlay-next').click();
  expect(await dialog.getByTestId('teach-overlay-sentence').textContent()).toBe(
    '审核启用后，手机遇到这个弹窗会自己点「关闭」关闭',
  );
  expect(await dialog.getByTestId('teach-overlay-check-close').textContent()).toContain(
    '描述为「关闭」（类型：图片（如 ×））',
  );
  expect(await dialog.getByTestId('teach-overlay-error').count()).toBe(0);
  await dialog.getByTestId('teach-overlay-submit').click();
  await dialog.waitFor({ state: 'detached' });

  const row = block.locator('[data-testid="taught-overlay"][data-overlay-name="taught_coupon_popup"]');
  await row.waitFor();
  expect(await row.getAttribute('data-state')).toBe('pending');
  expect(await row.getByTestId('taught-overlay-state').textContent()).toBe('待审核');
  const [taught] = await overlays();
  expect(taught).toMatchObject({
    name: 'taught_coupon_popup',
    entry: {
      name: 'taught_coupon_popup',
      signature: [{ text: '恭喜获得优惠券' }, { text: '限时专享' }],
      close: { content_desc: '关闭', class: 'android.widget.ImageView' },
    },
    taught_by: 'admin',
    reviewed_at: null,
  });

  await row.getByTestId('overlay-review').click();
  await block.locator('[data-testid="taught-overlay"][data-state="enabled"]').waitFor();
  expect(await row.getByTestId('taught-overlay-state').textContent()).toBe('已启用');
  expect(await row.getByTestId('taught-overlay-reviewer').textContent()).toContain('admin');
  expect(await row.getByTestId('overlay-review').count()).toBe(0);
  expect((await overlays())[0]).toMatchObject({ id: taught!.id, reviewed_by: 'admin' });

  await row.getByTestId('overlay-retire').click();
  await page.getByTestId('overlay-retire-dialog').getByText('不再自己点「关闭」').waitFor();
  await page.getByTestId('overlay-retire-dialog-confirm').click();
  await block.getByTestId('taught-overlays-empty').waitFor();
  expect(await overlays()).toEqual([]);
  const actions = await admin.db
    .selectFrom('audit_log')
    .select('action')
    .where('action', 'like', 'overlay.%')
    .orderBy('id')
    .execute();
  expect(actions.map((a) => a.action)).toEqual(['overlay.teach', 'overlay.review', 'overlay.retire']);
});

test('a task stopped at an unrecognised popup opens its phone’s screen with 教手机关闭这个弹窗 for the phone’s version', async () => {
  const phone = await issueTestDevice(admin, '三号机');
  const registered = await deviceRequest(admin, phone, 'POST', '/api/device/register', {
    body: { serial: 'teach-phone', model: 'Pixel 7', app_version: VERSION },
  });
  expect(registered.status).toBe(200);
  await admin.db
    .insertInto('tasks')
    .values({
      task_id: 'stop-overlay',
      task_type: 'purchase',
      status: 'NEEDS_MANUAL',
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=990002',
      pdd_goods_id: '990002',
      pdd_options: JSON.stringify({ 颜色分类: '黑色' }),
      quantity: 1,
      max_total_price_cent: 500,
      execution_mode: 'dry_run',
      title: '羊毛大衣',
      reason_code: 'UNKNOWN_OVERLAY',
      device_id: phone.deviceId,
      created_at: '2026-08-07T07:00:00Z',
      updated_at: '2026-08-07T08:01:00Z',
    })
    .execute();

  await page.goto(`${admin.url}/#/tasks/stop-overlay`);
  await page.getByTestId('task-teach-overlay-link').click();
  await waitForHash(page, `#/devices/${phone.deviceId}/screen?teach=1`);
  const dialog = page.getByTestId('teach-overlay-dialog');
  await dialog.waitFor();
  await waitForText(page, 'teach-overlay-dialog', `拼多多版本 ${VERSION}`);
  // 从屏幕读取 only while this operator holds the phone: its worker reads it only then
  expect(await dialog.getByTestId('teach-overlay-read').isDisabled()).toBe(true);
  await dialog.getByTestId('teach-overlay-cancel').click();
  await dialog.waitFor({ state: 'detached' });
  // the panel offers it again for the next popup
  expect(await page.getByTestId('screen-teach-open').isDisabled()).toBe(false);

  // held, the phone's worker sends what it reads; the operator marks the popup instead of typing it
  await page.getByTestId('screen-take').click();
  await page.getByTestId('screen-release').waitFor();
  const hold = await admin.db
    .selectFrom('device_holds')
    .select('since')
    .where('device_id', '=', phone.deviceId)
    .executeTakeFirstOrThrow();
  const node = (text: string, content_desc: string, cls: string, clickable: boolean) => ({
    text,
    content_desc,
    resource_id: '',
    class: cls,
    bounds: [100, 100, 200, 200],
    clickable,
  });
  const sent = await deviceRequest(admin, phone, 'PUT', '/api/device/screen-nodes', {
    body: {
      hold_since: hold.since,
      nodes: [
        node('秋季大促 全场满减', '', 'android.widget.TextView', false),
        node('', '关闭', 'android.widget.ImageView', true),
      ],
    },
  });
  expect(sent.status).toBe(204);
  await page.getByTestId('screen-teach-open').click();
  await dialog.getByTestId('teach-overlay-read').click();
  const nodes = dialog.getByTestId('teach-overlay-node');
  await nodes.first().waitFor();
  expect(await nodes.allTextContents()).toEqual(['秋季大促 全场满减', '描述：关闭（可点）']);
  await nodes.nth(0).click();
  await dialog.getByTestId('teach-overlay-node-signature').click();
  await nodes.nth(1).click();
  await dialog.getByTestId('teach-overlay-node-close').click();
  await dialog.getByTestId('teach-overlay-name').fill('autumn_promo');
  await dialog.getByTestId('teach-overlay-next').click();
  expect(await dialog.getByTestId('teach-overlay-check-signature').allTextContents()).toEqual([
    '文字为「秋季大促 全场满减」',
  ]);
  expect(await dialog.getByTestId('teach-overlay-check-close').textContent()).toContain(
    '描述为「关闭」（类型：图片（如 ×））',
  );
  await dialog.getByTestId('teach-overlay-edit').click();
  await dialog.getByTestId('teach-overlay-cancel').click();
  await page.getByTestId('screen-release').click();
  await page.getByTestId('screen-take').waitFor();
});
