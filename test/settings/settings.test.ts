import { nowUtc } from '../../domain/time';
import {
  deviceRequest,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type OperatorClient,
  type TestAdmin,
} from '../harness';
import { collectedInTestDb } from '../collected';

/**
 * 设置 over HTTP against a real admin: `GET /api/settings`, the partial `PUT /api/settings` (zod
 * ranges, Chinese refusals that write nothing, one audit row old → new), and that the code acting
 * on a setting reads the new value at once — no restart.
 */
const GOODS_ID = '937122477375';
const GOODS_URL = `https://mobile.yangkeduo.com/goods.html?goods_id=${GOODS_ID}`;
const DEFAULTS = {
  'safety.max_quantity': 10,
  'safety.price_tolerance_cent': 500,
  'purchase.authorization_ttl_minutes': 60,
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
};

describe('settings API', () => {
  let admin: TestAdmin;
  let op: OperatorClient;

  beforeAll(async () => {
    admin = await startTestAdmin();
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  const settingsRows = async () =>
    admin.db
      .selectFrom('app_settings')
      .select(['setting_key', 'value_json'])
      .where('setting_key', 'in', Object.keys(DEFAULTS))
      .orderBy('setting_key')
      .execute();
  const auditRows = async () =>
    admin.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'details_json'])
      .where('action', '=', 'settings.set')
      .orderBy('id')
      .execute();

  async function draft(quantity: number): Promise<{ task_id: string; version: number }> {
    await collectedInTestDb(admin.db, GOODS_ID); // a draft needs a collect
    const res = await op.post('/api/tasks', {
      type: 'purchase',
      pdd_goods_url: GOODS_URL,
      pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
      quantity,
      max_total_price_cent: 2000,
    });
    expect(res.status).toBe(201);
    const { task_id, version } = res.body as { task_id: string; version: number };
    return { task_id, version };
  }

  it('shows the defaults before anyone sets a value', async () => {
    const res = await op.get('/api/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ values: DEFAULTS, invalid: [] });
  });

  it('refuses values out of range, fractions, strings, unknown keys and an empty change with Chinese reasons, writing nothing', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ 'safety.max_quantity': 0 }, /单次采购数量上限须在 1–99 件 之间/],
      [{ 'safety.max_quantity': 100 }, /单次采购数量上限须在 1–99 件 之间/],
      [{ 'safety.price_tolerance_cent': -1 }, /最高总价容差须在 ¥0\.00–¥1000\.00 之间/],
      [{ 'safety.price_tolerance_cent': 12.5 }, /最高总价容差须为整数/],
      [{ 'purchase.authorization_ttl_minutes': '30' }, /授权有效期须为整数/],
      [{ 'diagnostics.retention_days': 3651 }, /失败现场保留天数须在 1–3650 天 之间/],
      [{ 'safety.max_quantity': 5, 'syb.password': 'x' }, /只能修改设置页上列出的项目/],
      [{}, /请至少修改一项设置/],
    ];
    for (const [body, message] of bad) {
      const res = await op.put('/api/settings', body);
      expect({ body, status: res.status, code: (res.body as { error: { code: string } }).error.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      const issues = (res.body as { error: { details: { issues: Array<{ message: string }> } } }).error.details.issues;
      expect(issues.map((i) => i.message).join(' ')).toMatch(message);
    }
    expect(await settingsRows()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it('changes only the keys given, records old → new in one audit row, and answers with every value', async () => {
    const res = await op.put('/api/settings', { 'safety.max_quantity': 2, 'safety.price_tolerance_cent': 0 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      values: { ...DEFAULTS, 'safety.max_quantity': 2, 'safety.price_tolerance_cent': 0 },
      invalid: [],
    });
    expect((await op.get('/api/settings')).body).toEqual(res.body);
    expect(await settingsRows()).toEqual([
      { setting_key: 'safety.max_quantity', value_json: '2' },
      { setting_key: 'safety.price_tolerance_cent', value_json: '0' },
    ]);
    const audits = await auditRows();
    expect(audits).toHaveLength(1);
    expect(audits[0]?.actor).toBe('admin');
    expect(JSON.parse(audits[0]?.details_json ?? 'null')).toEqual({
      changes: { 'safety.max_quantity': { old: 10, new: 2 }, 'safety.price_tolerance_cent': { old: 500, new: 0 } },
    });

    // Saving the same values again changes nothing and records nothing.
    expect((await op.put('/api/settings', { 'safety.max_quantity': 2 })).status).toBe(200);
    expect(await auditRows()).toHaveLength(1);
  });

  it('the quantity limit applies to the next start without a restart, both ways', async () => {
    // saved under a higher limit (a save over the limit is refused: test/tasks/drafts.test.ts), then lowered
    expect((await op.put('/api/settings', { 'safety.max_quantity': 3 })).status).toBe(200);
    const d = await draft(3);
    expect((await op.put('/api/settings', { 'safety.max_quantity': 2 })).status).toBe(200);
    const refused = await op.post('/api/tasks/start', { tasks: [d] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: { code: 'START_REFUSED', details: { tasks: [{ task_id: d.task_id, code: 'QUANTITY_OVER_LIMIT' }] } },
    });

    expect(
      (await op.put('/api/settings', { 'safety.max_quantity': 3, 'purchase.authorization_ttl_minutes': 7 })).status,
    ).toBe(200);
    const started = await op.post('/api/tasks/start', { tasks: [d] });
    expect(started.status).toBe(200);
    // The authorization lasts exactly the minutes just set.
    const auth = await admin.db
      .selectFrom('order_authorizations')
      .select(['created_at', 'expires_at'])
      .where('task_id', '=', d.task_id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(auth.expires_at) - Date.parse(auth.created_at)).toBe(7 * 60_000);
    expect((await op.post(`/api/tasks/${d.task_id}/cancel`)).status).toBe(200);
  });

  it('the admin public URL: an http(s) origin or nothing, audited, cleared with null', async () => {
    for (const bad of ['ftp://admin.example', 'https://admin.example/cmautobuy', 'not a url', 5]) {
      const res = await op.put('/api/settings', { 'admin.public_url': bad });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    const set = await op.put('/api/settings', { 'admin.public_url': ' https://admin.example:8443/ ' });
    expect(set.body).toMatchObject({ values: { 'admin.public_url': 'https://admin.example:8443' } });
    expect(JSON.parse((await auditRows()).at(-1)?.details_json ?? 'null')).toEqual({
      changes: { 'admin.public_url': { old: null, new: 'https://admin.example:8443' } },
    });
    const cleared = await op.put('/api/settings', { 'admin.public_url': null });
    expect(cleared.body).toMatchObject({ values: { 'admin.public_url': null }, invalid: [] });
    expect(
      await admin.db
        .selectFrom('app_settings')
        .select('setting_key')
        .where('setting_key', '=', 'admin.public_url')
        .execute(),
    ).toEqual([]);
  });

  it('the money settings: integers in range, the rate and minimum margin unset until set and cleared with null, audited', async () => {
    for (const bad of [
      { 'money.twd_to_cny_rate_ppm': 0 },
      { 'money.twd_to_cny_rate_ppm': 10_000_001 },
      { 'money.twd_to_cny_rate_ppm': 0.225 },
      { 'money.platform_fee_bp': 10_001 },
      { 'money.platform_fee_bp': null },
      { 'money.line_fee_cny_cent': -1 },
      { 'money.min_margin_bp': 10_001 },
    ]) {
      const res = await op.put('/api/settings', bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expect(JSON.stringify(res.body)).toContain(Object.keys(bad)[0]);
    }
    const set = await op.put('/api/settings', { 'money.twd_to_cny_rate_ppm': 225_000, 'money.min_margin_bp': -500 });
    expect(set.body).toMatchObject({ values: { 'money.twd_to_cny_rate_ppm': 225_000, 'money.min_margin_bp': -500 } });
    expect(JSON.parse((await auditRows()).at(-1)?.details_json ?? 'null')).toEqual({
      changes: {
        'money.twd_to_cny_rate_ppm': { old: null, new: 225_000 },
        'money.min_margin_bp': { old: null, new: -500 },
      },
    });
    const cleared = await op.put('/api/settings', { 'money.min_margin_bp': null });
    expect(cleared.body).toMatchObject({
      values: { 'money.twd_to_cny_rate_ppm': 225_000, 'money.min_margin_bp': null },
    });
    await op.put('/api/settings', { 'money.twd_to_cny_rate_ppm': null });
  });

  it('a phone host gets the retention days set here with its next registration', async () => {
    const device = await issueTestDevice(admin, '设置测试手机');
    const register = () =>
      deviceRequest(admin, device, 'POST', '/api/device/register', {
        body: { serial: 'settings-phone', model: 'sim', app_version: '7.3.0' },
      });
    expect(((await register()).body as { settings: unknown }).settings).toEqual({ artifact_retention_days: 14 });
    expect((await op.put('/api/settings', { 'diagnostics.retention_days': 3 })).status).toBe(200);
    expect(((await register()).body as { settings: unknown }).settings).toEqual({ artifact_retention_days: 3 });
  });

  it('a value written by hand outside its range is flagged, refuses the action it governs (no 5xx), and is fixed by saving', async () => {
    await admin.db
      .updateTable('app_settings')
      .set({ value_json: '1000', updated_at: nowUtc() })
      .where('setting_key', '=', 'safety.max_quantity')
      .execute();
    const view = await op.get('/api/settings');
    expect(view.body).toMatchObject({ values: { 'safety.max_quantity': 10 }, invalid: ['safety.max_quantity'] });

    const d = await draft(1);
    const refused = await op.post('/api/tasks/start', { tasks: [d] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'SETTING_INVALID', details: { key: 'safety.max_quantity' } } });
    expect(
      (await admin.db.selectFrom('tasks').select('status').where('task_id', '=', d.task_id).executeTakeFirstOrThrow())
        .status,
    ).toBe('DRAFT');

    // Saving the value the page shows repairs the row; the audit names what was really there.
    expect((await op.put('/api/settings', { 'safety.max_quantity': 10 })).body).toMatchObject({ invalid: [] });
    expect(JSON.parse((await auditRows()).at(-1)?.details_json ?? 'null')).toEqual({
      changes: { 'safety.max_quantity': { old: '1000', new: 10 } },
    });
    expect((await op.post('/api/tasks/start', { tasks: [d] })).status).toBe(200);
    expect((await op.post(`/api/tasks/${d.task_id}/cancel`)).status).toBe(200);
  });
});
