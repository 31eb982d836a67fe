import { getJson, loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

describe('admin → Temporal → admin worker → admin DB', () => {
  let admin: TestAdmin;
  let operator: OperatorClient;
  beforeAll(async () => {
    admin = await startTestAdmin();
    operator = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('runs a workflow started by an API call on the real server and returns its result', async () => {
    const res = await operator.post('/api/system/checks', {});
    expect(res.status).toBe(200);
    const body = res.body as { workflow_id: string; db: string; tables: number };
    expect(body.workflow_id).toMatch(/^system-check\//);
    expect(body.db).toBe('ok');
    expect(body.tables).toBeGreaterThan(0);

    // The activity really wrote the admin DB, and the workflow really exists on the server.
    const row = await admin.db
      .selectFrom('app_settings')
      .selectAll()
      .where('setting_key', '=', 'diagnostics.last_system_check')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.value_json).workflow_id).toBe(body.workflow_id);
    const client = await admin.temporal.client();
    const desc = await client.workflow.getHandle(body.workflow_id).describe();
    expect(desc.status.name).toBe('COMPLETED');
    expect(desc.taskQueue).toBe('admin');
  });

  it('says temporal "ok" on /healthz', async () => {
    const res = await getJson(`${admin.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', db: 'ok', temporal: 'ok' });
  });

  it('rejects bad input with a 400 naming the field and runs nothing', async () => {
    const res = await operator.post('/api/system/checks', { hold_seconds: 'soon' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    expect(JSON.stringify(res.body)).toContain('hold_seconds');
  });

  it('answers malformed JSON with a 400, never a 500 or a stack trace', async () => {
    const res = await getJson(`${admin.url}/api/system/checks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: operator.sessionCookie ?? '',
        'x-csrf-token': operator.csrfToken ?? '',
      },
      body: '{"hold_',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'INVALID_JSON' } });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers an unknown /api route with a JSON 404', async () => {
    const res = await operator.get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
