import type { Page } from 'playwright-core';
import type { AuthorizationStatus } from '../../admin/db/tables/purchase';
import type { CollectTaskStatus } from '../../admin/db/tables/catalog';
import { EVIDENCE_KINDS } from '../../admin/evidence/limits';
import { COLLECT_RUN_STATUS_ZH } from '../../domain/collect-labels';
import { EVIDENCE_KIND_ZH } from '../../domain/evidence-labels';
import { AUTHORIZATION_STATUS_ZH } from '../../domain/purchase-labels';
import type { TaskView } from '../../domain/purchase/views';
import { defaultShipments, DEMO_PRODUCTS } from '../../sim/syb/data';
import { demoPddUrl, demoShopeeExport, demoSkus } from '../../sim/syb/demo-export';
import { startSybSim, type SybSim } from '../../sim/syb/server';
import { startBrowserRig, waitInPage, type BrowserRig } from '../browser';
import { linkAndCollect, startDemoPhone, type DemoPhone } from './demo';
import { upload } from '../catalog/helpers';
import { until } from '../device/fixtures';
import { TEST_ADMIN_PASSWORD, type OperatorClient, type TestAdmin } from '../harness';

/**
 * The operator reads Chinese everywhere. On the demo data of a fresh `npm start` — the Shopee
 * export imported, the coat linked, collected by a real device worker on the phone simulator and
 * mapped, the SYB orders synced, one dry run passed and one purchase stopped at Gate 1 — this
 * walks every page the router has and fails on any visible Latin-only word that is not a genuine
 * identifier (ui/dist must be built: `npm test` does it; by hand
 * `npx vite build --config ui/vite.config.ts`). It also opens the evidence dialog on a
 * 1366×768 screen, where its 关闭 must stay in view.
 */

/**
 * Words that are names, not English: the product, the platforms, size codes of the goods (S/M/L,
 * T恤) and the storage units a phone's free space is shown in (as Chinese Android shows them).
 */
// Excel and CSV: the file formats of the export for the books, which an operator opens by those names
const ALLOWED = new Set([
  ...['cmautobuy', 'PDD', 'SKU', 'ID', 'Temporal', 'Shopee', 'S', 'M', 'L', 'XL', 'T', 'MB', 'GB'],
  ...['Excel', 'CSV'],
]);
/** Identifiers this test's own data puts on the pages: the operator's user name, the phone's serial and model. */
const SERIAL = 'sim-walk';
const DATA_IDS = new Set(['admin', SERIAL, 'SIM']);

const [coat] = DEMO_PRODUCTS;
const BLACK_M = { 颜色分类: '黑色', 尺码: 'M' };

let rig: BrowserRig;
let admin: TestAdmin;
let page: Page;
let api: OperatorClient;
let syb: SybSim;
let demo: DemoPhone;
const task: { passed?: string; stopped?: string } = {};

async function purchase(maxTotalPriceCent: number): Promise<string> {
  const created = await api.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: demoPddUrl(coat.pddGoodsId),
    pdd_options: BLACK_M,
    quantity: 1,
    max_total_price_cent: maxTotalPriceCent,
    execution_mode: 'dry_run',
  });
  expect(created.status).toBe(201);
  const { task_id, version } = created.body as { task_id: string; version: number };
  expect((await api.post('/api/tasks/start', { tasks: [{ task_id, version }] })).status).toBe(200);
  return task_id;
}

async function settled(taskId: string, status: string): Promise<TaskView> {
  return until(
    `task ${taskId} to be ${status}`,
    async () => {
      const t = (await api.get(`/api/tasks/${taskId}`)).body as TaskView;
      return ['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED', 'CANCELED'].includes(t.status) ? t : null;
    },
    120_000,
  );
}

beforeAll(async () => {
  rig = await startBrowserRig();
  ({ admin, api, page } = rig);
  const shipments = defaultShipments();
  syb = await startSybSim({ port: 0, shipments });
  demo = await startDemoPhone(admin, SERIAL, '走查手机');
  expect((await upload(api, await demoShopeeExport())).status).toBe(200);
  const collected = await linkAndCollect(api, coat);
  expect(collected.collect_status).toBe('collected');
  const blackM = collected.skus_json?.skus.find((s) => Object.values(s.options).join('/') === '黑色/M');
  const skuId = demoSkus().find((s) => s.goodsId === coat.productId && s.spec === '黑色,M')?.skuId;
  expect((await api.put(`/api/mappings/${skuId}`, { pdd_options: blackM!.options })).status).toBe(200);

  expect(
    (
      await api.put('/api/syb/settings', {
        url: syb.url,
        username: syb.credentials.username,
        password: syb.credentials.password,
      })
    ).status,
  ).toBe(200);
  expect((await api.post('/api/syb/sync')).status).toBe(202);
  await until(
    'the SYB sync',
    async () => ((await api.get('/api/syb/orders')).body as { items: unknown[] }).items.length > 0,
    60_000,
  );

  task.passed = await purchase(2000);
  expect((await settled(task.passed, 'DRY_RUN_PASSED')).status).toBe('DRY_RUN_PASSED');
  task.stopped = await purchase(500); // ¥12.88 × 1 > ¥5.00: Gate 1
  const stopped = await settled(task.stopped, 'NEEDS_MANUAL');
  expect({ status: stopped.status, reason: stopped.reason_code }).toEqual({
    status: 'NEEDS_MANUAL',
    reason: 'GATE1_OVER_CAP',
  });
}, 400_000);

afterAll(async () => {
  await demo?.close();
  await syb?.close();
  await rig?.close();
});

/**
 * Everything the operator can read on the page: the rendered text, the placeholders, titles and
 * labels of elements, button texts and the file inputs' own browser text ("No file chosen").
 */
const VISIBLE_TEXT = `(() => {
  const parts = [document.body.innerText];
  for (const el of document.querySelectorAll('[placeholder],[title],[aria-label],[alt]')) {
    for (const a of ['placeholder', 'title', 'aria-label', 'alt']) { const v = el.getAttribute(a); if (v) parts.push(v); }
  }
  for (const b of document.querySelectorAll('button,input[type=button],input[type=submit]')) parts.push(b.innerText || b.value || '');
  for (const f of document.querySelectorAll('input[type=file]')) {
    const r = f.getBoundingClientRect();
    if (r.width > 1 && r.height > 1 && getComputedStyle(f).visibility !== 'hidden') parts.push('Choose File No file chosen');
  }
  return parts.join('\\n');
})()`;

/** Latin-only words: CJK, punctuation and spaces split; URLs, ids and amounts never match. */
function latinWords(text: string): string[] {
  return text
    .split(/[\s\u3000-\u303f\u3400-\u9fff\uff00-\uffef（）()，,；;、。！!「」【】《》“”"'·×…—–|<>≤≥≠→←[\]{}]+/)
    .map((w) => w.replace(/[.:?]+$/, ''))
    .filter((w) => /^[A-Za-z][A-Za-z_-]*$/.test(w) && !ALLOWED.has(w) && !DATA_IDS.has(w));
}

/**
 * Engineers' words: a UUID, an UPPER_SNAKE code, 围栏. On the task pages and 设备 they may only
 * sit inside a folded 技术详情 (a closed <details> is not rendered, so innerText leaves it out).
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/iu;
const CODE = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b/u;
function jargon(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => UUID.test(line) || CODE.test(line) || line.includes('围栏'))
    .map((line) => line.trim().slice(0, 120));
}
const JARGON_FREE = new Set(['采购任务', '任务详情（需人工处理）', '任务详情（试运行通过）', '证据截图', '设备']);

const found = new Map<string, Set<string>>();

async function walk(name: string, hash: string, ready: string): Promise<void> {
  await page.goto(`${admin.url}/#${hash}`);
  await page.getByTestId(ready).first().waitFor({ timeout: 30_000 });
  // Lists and details load after the frame: wait until nothing says 正在加载.
  await waitInPage<boolean>(page, `!document.body.innerText.includes('正在加载')`, (v) => v, 30_000);
  note(name, await page.evaluate<string>(VISIBLE_TEXT));
}

function note(name: string, text: string): void {
  const words = latinWords(text);
  if (JARGON_FREE.has(name)) words.push(...jargon(text).map((line) => `「${line}」`));
  for (const w of words) found.set(w, (found.get(w) ?? new Set()).add(name));
}

test('every evidence kind, authorization state and collect state the admin names has its Chinese label', () => {
  expect(Object.keys(EVIDENCE_KIND_ZH).sort()).toEqual([...EVIDENCE_KINDS].sort());
  // A state added to the admin's types without a label here fails to compile.
  const authorization: Record<AuthorizationStatus, string> = AUTHORIZATION_STATUS_ZH;
  const collect: Record<CollectTaskStatus, string> = COLLECT_RUN_STATUS_ZH;
  for (const label of [...Object.values(EVIDENCE_KIND_ZH), ...Object.values(authorization), ...Object.values(collect)])
    expect(label).toMatch(/^[^A-Za-z]+$/);
});

test('logs in', async () => {
  await page.goto(`${admin.url}/#/products`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('page-products').waitFor();
});

test('设备「最近错误」 blames the phone for its own faults only, in Chinese', async () => {
  const deviceRow = page.locator(`[data-testid="device-row"][data-device-id="${demo.deviceId}"]`);
  await page.goto(`${admin.url}/#/devices`);
  await deviceRow.waitFor();
  // the Gate 1 stop is the task's price, not the phone's fault
  expect(await deviceRow.getByTestId('device-last-error').count()).toBe(0);
  // a lost ADB connection is (written as the purchase activity records a device failure)
  await admin.db
    .updateTable('purchase_attempts')
    .set({ failure_code: 'ADB_DISCONNECTED', failure_detail: 'device sim-walk not found' })
    .where('task_id', '=', task.stopped!)
    .execute();
  await page.reload();
  await deviceRow.getByTestId('device-last-error').waitFor();
  const text = await deviceRow.getByTestId('device-last-error').textContent();
  expect(text).toContain('手机与电脑的连接断开了');
  expect(text).not.toMatch(/ADB|未知原因/u);
});

test('the execution log names the permitted submission without 围栏 or its id (both under 技术详情)', async () => {
  // the record the purchase writes when the fence is passed (a dry run never gets there)
  const attempt = await admin.db
    .selectFrom('purchase_attempts')
    .select(['id', 'timeline_json'])
    .where('task_id', '=', task.passed!)
    .executeTakeFirstOrThrow();
  const entries = JSON.parse(attempt.timeline_json) as unknown[];
  const id = 'a7b20a0b-5c1d-4e2f-9a3b-0c4d5e6f7a8b';
  entries.push({ at: '2026-08-07T08:00:00Z', status: 'FENCED', reason: null, detail: `submission ${id}`, actor: null });
  await admin.db
    .updateTable('purchase_attempts')
    .set({ timeline_json: JSON.stringify(entries) })
    .where('id', '=', attempt.id)
    .execute();
  await page.goto(`${admin.url}/#/tasks/${task.passed!}`);
  const fenced = page.locator('[data-testid="timeline-entry"][data-status="FENCED"]');
  await fenced.waitFor();
  expect(await fenced.innerText()).toContain('已获准点击一次「提交订单」');
  expect(await fenced.innerText()).not.toContain(id);
  await fenced.getByText('技术详情').click();
  expect(await fenced.innerText()).toContain(id);
});

test('no page shows a Latin-only word that is not an identifier, nor jargon outside 技术详情', async () => {
  await walk('商品', '/products', 'product-row');
  await walk('商品详情', `/products/${coat.productId}`, 'product-title');
  await walk('拼多多商品', '/pdd', 'page-pdd');
  await walk('拼多多商品详情', `/pdd/${coat.pddGoodsId}`, 'page-pdd-goods');
  await walk('订单', '/orders', 'order-row');
  await walk('采购任务', '/tasks', 'task-row');
  await walk('任务详情（需人工处理）', `/tasks/${task.stopped!}`, 'task-reason');
  await walk('任务详情（试运行通过）', `/tasks/${task.passed!}`, 'evidence-thumb');
  await page.getByTestId('evidence-thumb').first().click();
  await page.getByTestId('evidence-dialog').waitFor();
  note('证据截图', await page.evaluate<string>(VISIBLE_TEXT));
  await walk('新建采购任务', '/tasks/new', 'task-form');
  await walk('设备', '/devices', 'device-row');
  await walk('需处理', '/attention', 'attention-row');
  await walk('设置', '/settings', 'settings-form');
  const report = [...found].map(([word, pages]) => `${word}  (${[...pages].join('、')})`);
  expect(report).toEqual([]);
});

test('the Gate 1 stop reads as a Chinese sentence with the amounts; 用时 is the time up to the stop', async () => {
  await page.goto(`${admin.url}/#/tasks/${task.stopped!}`);
  await page.getByTestId('task-reason').waitFor();
  expect(await page.getByTestId('task-reason-detail').textContent()).toBe(
    '单价 ¥12.88 × 1 = ¥12.88，超过最高总价 ¥5.00',
  );
  // 需人工处理 is not finished, but the phone has stopped: 用时 counts to the stop, never 进行中
  const seconds = ((await api.get(`/api/tasks/${task.stopped!}`)).body as TaskView).duration_seconds;
  expect(typeof seconds).toBe('number');
  expect(await page.getByTestId('task-duration').textContent()).toMatch(/^\d+(秒|分\d+秒)$/u);
  await page.goto(`${admin.url}/#/tasks`);
  const row = page.locator(`[data-testid="task-row"][data-task-id="${task.stopped!}"]`);
  await row.waitFor();
  expect(await row.getByTestId('task-duration').textContent()).not.toBe('进行中');
  expect(await row.getByTestId('task-duration').textContent()).toMatch(/秒/u);
});

test('on a 1366×768 screen the evidence dialog keeps 关闭 in view and closes with it', async () => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`${admin.url}/#/tasks/${task.passed!}`);
  await page.getByTestId('evidence-thumb').first().click();
  const dialog = page.getByTestId('evidence-dialog');
  await dialog.waitFor();
  // the full-size screenshot has loaded, so the layout is final
  await waitInPage<boolean>(
    page,
    `(() => { const i = document.querySelector('[data-testid="evidence-dialog"] img'); return !!i && i.complete && i.naturalHeight > 0; })()`,
    (v) => v,
  );
  const close = page.getByTestId('evidence-close');
  const box = await close.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(768);
  expect(box!.x + box!.width).toBeLessThanOrEqual(1366);
  // What is at the button's centre is the button: nothing covers it.
  const hit = await page.evaluate<string | null>(
    `(() => { const e = document.elementFromPoint(${box!.x + box!.width / 2}, ${box!.y + box!.height / 2}); return e && e.closest('[data-testid="evidence-close"]') ? 'close' : (e ? e.outerHTML.slice(0, 80) : null); })()`,
  );
  expect(hit).toBe('close');

  // 查看原图: the screenshot at its own pixels, scrolled, zoomable; Escape leaves the dialog open
  await page.getByTestId('evidence-full-open').click();
  const full = page.getByTestId('evidence-full');
  await waitInPage<boolean>(
    page,
    `(() => { const i = document.querySelector('[data-testid="evidence-full"]'); return !!i && i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width === i.naturalWidth; })()`,
    (v) => v,
  );
  const natural = await page.evaluate<{ w: number; h: number }>(
    `(() => { const i = document.querySelector('[data-testid="evidence-full"]'); return { w: i.naturalWidth, h: i.naturalHeight }; })()`,
  );
  expect(await page.getByTestId('evidence-zoom').textContent()).toBe('100%');
  expect((await full.boundingBox())!.width).toBe(natural.w);
  // taller than the window: the stage scrolls instead of shrinking it
  if (natural.h > 768)
    expect(
      await page.evaluate<boolean>(
        `(() => { const s = document.querySelector('[data-testid="evidence-viewer-stage"]'); return s.scrollHeight > s.clientHeight; })()`,
      ),
    ).toBe(true);
  await page.getByTestId('evidence-zoom-in').click();
  expect(await page.getByTestId('evidence-zoom').textContent()).toBe('125%');
  expect((await full.boundingBox())!.width).toBe(Math.round(natural.w * 1.25));
  await page.getByTestId('evidence-zoom-fit').click();
  expect((await full.boundingBox())!.height).toBeLessThanOrEqual(768);
  await page.keyboard.press('Escape');
  await page.getByTestId('evidence-viewer').waitFor({ state: 'detached' });
  await dialog.waitFor();
  await close.click({ trial: false });
  await dialog.waitFor({ state: 'detached' });
});
