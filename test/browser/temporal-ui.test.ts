import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, waitInPage } from '../browser';
import { collectedInTestDb } from '../collected';
import {
  getJson,
  loginOperator,
  sharedTemporal,
  startTestAdmin,
  TEST_ADMIN_PASSWORD,
  type OperatorClient,
  type TestAdmin,
} from '../harness';
import { allocateNamespace } from '../namespaces';

/**
 * The Temporal Web UI as `npm start` gives it to operators (ui/dist must be built): the admin
 * serves the embedded UI at /temporal/ on its own origin, so the task page's 工作流 link opens
 * it with the operator's session and its payloads read decoded, with no codec setting in the
 * browser. Strangers get nothing, and the UI changes nothing.
 */
jest.setTimeout(180_000);
const GOODS = '937122477375';

let admin: TestAdmin;
let api: OperatorClient;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  const { address, uiUrl } = sharedTemporal();
  admin = await startTestAdmin({
    temporal: { address, namespace: allocateNamespace(), uiUrl: '/temporal', uiUpstream: uiUrl },
  });
  api = await loginOperator(admin);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
}, 120_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await admin?.close();
});

test('a stranger gets no Temporal UI: a page goes to the login, the API is 401', async () => {
  const pageRes = await fetch(`${admin.url}/temporal/namespaces/${admin.namespace}/workflows`, { redirect: 'manual' });
  expect(pageRes.status).toBe(302);
  expect(pageRes.headers.get('location')).toBe('/');
  const settings = await getJson(`${admin.url}/temporal/api/v1/settings`);
  expect(settings.status).toBe(401);
  expect(settings.body).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
});

test("the task page's 工作流 link opens the Web UI through the admin, which shows the workflow's input decoded", async () => {
  await collectedInTestDb(admin.db, GOODS);
  const draft = await api.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${GOODS}`,
    pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
    quantity: 1,
    max_total_price_cent: 2000,
  });
  expect(draft.status).toBe(201);
  const { task_id, version } = draft.body as { task_id: string; version: number };
  expect((await api.post('/api/tasks/start', { tasks: [{ task_id, version }] })).status).toBe(200);

  await page.goto(`${admin.url}/#/tasks/${task_id}`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.goto(`${admin.url}/#/tasks/${task_id}`);
  const link = page.locator('[data-testid="workflow-link"][href]');
  await link.waitFor({ state: 'attached' });
  await page.getByTestId('workflow-detail').getByText('技术详情').click();
  const href = (await link.getAttribute('href')) ?? '';
  expect(href.startsWith(`/temporal/namespaces/${admin.namespace}/workflows/purchase%2F${task_id}%2F`)).toBe(true);

  const [ui] = await Promise.all([context.waitForEvent('page'), link.click()]);
  try {
    await ui.waitForLoadState();
    expect(new URL(ui.url()).origin).toBe(new URL(admin.url).origin);
    // the input's field names are inside an encrypted payload: they show only once the codec
    // decoded it (the task id alone would show anyway, in the workflow id)
    const text = await waitInPage<string>(
      ui,
      'document.body.innerText',
      (t) => t.includes('maxTotalPriceCent') && t.includes(task_id),
      60_000,
    ).catch(async (err: unknown) => {
      console.error(await ui.evaluate('document.body.innerText'));
      throw err;
    });
    expect(text).not.toContain('Codec Server could not connect');
    expect(text).not.toContain('binary/encrypted');
  } finally {
    await ui.close();
  }
});

test('the Web UI served to operators is read-only: its settings turn write actions off, a write is refused', async () => {
  const settings = await api.get('/temporal/api/v1/settings');
  expect(settings.status).toBe(200);
  expect(settings.body).toMatchObject({ DisableWriteActions: true, Codec: { Endpoint: '/api/codec' } });
  const terminate = await api.post(
    `/temporal/api/v1/namespaces/${admin.namespace}/workflows/${encodeURIComponent('purchase/x/y')}/terminate`,
    { reason: 'test' },
  );
  expect(terminate.status).toBe(403);
  expect(terminate.body).toMatchObject({ error: { code: 'TEMPORAL_UI_READ_ONLY' } });
});
