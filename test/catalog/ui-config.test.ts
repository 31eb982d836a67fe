import { getJson, loginOperator, sharedTemporal, startTestAdmin, type TestAdmin } from '../harness';

/** `GET /api/config`: the UI builds the 工作流 link from the Temporal UI the admin was started with. */
describe('GET /api/config', () => {
  let admin: TestAdmin;
  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('names the running Temporal Web UI and the namespace, to logged-in operators only', async () => {
    expect((await getJson(`${admin.url}/api/config`)).status).toBe(401);
    const op = await loginOperator(admin);
    const res = await op.get('/api/config');
    expect(res.status).toBe(200);
    const uiUrl = sharedTemporal().uiUrl;
    // the shared server's UI at the path an admin serves it under (admin/http/temporal-ui-proxy.ts)
    expect(uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/temporal$/);
    expect(res.body).toEqual({ temporal_ui_url: uiUrl, temporal_namespace: admin.namespace, restore_notice: null });
    // and something answers there: the Web UI of the test's own Temporal server
    const page = await fetch(`${uiUrl}/namespaces/${admin.namespace}/workflows`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
  });

  it('says so when the admin knows no Temporal UI (an existing cluster nobody named one for)', async () => {
    const other = await startTestAdmin({
      runWorker: false,
      temporal: { address: sharedTemporal().address, namespace: admin.namespace, uiUrl: null },
    });
    try {
      const op = await loginOperator(other);
      expect((await op.get('/api/config')).body).toEqual({
        temporal_ui_url: null,
        temporal_namespace: admin.namespace,
        restore_notice: null,
      });
    } finally {
      await other.close();
    }
  });
});
