import { POLLER_WINDOW_MS } from '../../admin/auth/device-registry';
import { issueHostCredential } from '../../admin/auth/host-credentials';
import type { DeviceView, IssuedDeviceView } from '../../domain/devices';
import type { TaskListItem, TaskView } from '../../domain/purchase/views';
import type { Page } from '../../domain/page';
import { toUtcTimestamp } from '../../domain/time';
import { deviceRequest, loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';

jest.setTimeout(240_000);

const REGISTRATION = { serial: 'phone-under-test', model: 'Pixel 7', app_version: '8.17.0' };

async function devices(op: OperatorClient): Promise<DeviceView[]> {
  const res = await op.get('/api/devices');
  expect(res.status).toBe(200);
  return res.body as DeviceView[];
}

async function deviceOf(op: OperatorClient, deviceId: string): Promise<DeviceView | undefined> {
  return (await devices(op)).find((d) => d.device_id === deviceId);
}

/** Asks again until `check` holds; the waiting is the phone's and Temporal's, nothing is timed. */
async function until<T>(read: () => Promise<T>, check: (v: T) => boolean, what: string, tries = 600): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    last = await read();
    if (check(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`never saw ${what}; last: ${JSON.stringify(last)}`);
}

async function auditRows(admin: TestAdmin, action: string) {
  return admin.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

async function backdateLastSeen(admin: TestAdmin, deviceId: string, minutes: number): Promise<void> {
  const at = toUtcTimestamp(new Date(Date.now() - minutes * 60_000));
  await admin.db.updateTable('devices').set({ last_seen_at: at }).where('device_id', '=', deviceId).execute();
}

describe('devices by name (operator API)', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  beforeEach(() => rig.resetPhone());

  it('issues a device: the token is answered once, works for registration, and is audited without the token', async () => {
    const res = await rig.op.post('/api/devices', { display_name: '  深圳-01  ' });
    expect(res.status).toBe(201);
    const issued = res.body as IssuedDeviceView;
    expect(issued.display_name).toBe('深圳-01');
    expect(issued.token).toMatch(/^[0-9a-f]{64}$/);
    expect(res.headers.get('cache-control')).toBe('no-store');

    // never again: not in the list, not in the audit row
    const listed = await rig.op.get('/api/devices');
    expect(JSON.stringify(listed.body)).not.toContain(issued.token);
    const row = (listed.body as DeviceView[]).find((d) => d.device_id === issued.device_id);
    expect(row).toMatchObject({
      display_name: '深圳-01',
      online: false,
      app_version: null,
      current_task_id: null,
      last_error: null,
    });
    const audit = await auditRows(rig.admin, 'device.issue');
    const mine = audit.filter((a) => a.target_id === issued.device_id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ actor_kind: 'operator', actor: 'admin' });
    const everything = JSON.stringify(await rig.admin.db.selectFrom('audit_log').selectAll().execute());
    expect(everything).not.toContain(issued.token);

    // the phone host can register with it
    const auth = { authorization: `Bearer ${issued.device_id}.${issued.token}` };
    const reg = await deviceRequest(rig.admin, auth, 'POST', '/api/device/register', { body: REGISTRATION });
    expect(reg.status).toBe(200);
    expect(await deviceOf(rig.op, issued.device_id)).toMatchObject({
      app_version: '8.17.0',
      serial: REGISTRATION.serial,
      model: REGISTRATION.model,
    });
  });

  it('refuses a bad name, an unknown device and a malformed id with a clear error, and writes nothing', async () => {
    const before = {
      creds: await rig.admin.db.selectFrom('device_credentials').selectAll().execute(),
      audit: await rig.admin.db.selectFrom('audit_log').selectAll().execute(),
    };
    const id = rig.device.deviceId;
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/api/devices', { display_name: '' }, 400, 'VALIDATION_FAILED'],
      ['POST', '/api/devices', { display_name: '   ' }, 400, 'VALIDATION_FAILED'],
      ['POST', '/api/devices', { display_name: 'x'.repeat(101) }, 400, 'VALIDATION_FAILED'],
      ['POST', '/api/devices', { display_name: 'a\nb' }, 400, 'VALIDATION_FAILED'],
      ['POST', '/api/devices', { display_name: 'ok', token: 'mine' }, 400, 'VALIDATION_FAILED'],
      ['POST', '/api/devices', { name: 'ok' }, 400, 'VALIDATION_FAILED'],
      ['PATCH', `/api/devices/${id}`, { display_name: 12 }, 400, 'VALIDATION_FAILED'],
      ['PATCH', `/api/devices/${id}`, { display_name: '' }, 400, 'VALIDATION_FAILED'],
      ['PATCH', '/api/devices/not-a-device', { display_name: 'ok' }, 400, 'VALIDATION_FAILED'],
      ['PATCH', '/api/devices/00000000-0000-4000-8000-000000000000', { display_name: 'ok' }, 404, 'DEVICE_NOT_FOUND'],
      ['POST', '/api/devices/00000000-0000-4000-8000-000000000000/revoke', {}, 404, 'DEVICE_NOT_FOUND'],
      ['POST', '/api/devices/x/revoke', {}, 400, 'VALIDATION_FAILED'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const res = await rig.op.request(method, path, body);
      expect({
        method,
        path,
        body,
        status: res.status,
        code: (res.body as { error?: { code?: string } }).error?.code,
      }).toEqual({ method, path, body, status, code });
      expect(typeof (res.body as { error: { message: unknown } }).error.message).toBe('string');
    }
    expect(await rig.admin.db.selectFrom('device_credentials').selectAll().execute()).toEqual(before.creds);
    // only the failed requests' own fallback rows, if any, may appear: no device.* change was
    // recorded. The rig's phone registers itself again after each claim, and that row may land at
    // any time; it is the phone's, not one of these requests'.
    const operatorChanges = (rows: typeof before.audit) =>
      rows.filter((a) => a.action.startsWith('device.') && a.action !== 'device.register');
    const after = await rig.admin.db.selectFrom('audit_log').selectAll().execute();
    expect(operatorChanges(after)).toEqual(operatorChanges(before.audit));
  });

  it('shows the task a phone is ordering and since when, then the newest stop of its attempts; a renamed device is shown by name on the task views', async () => {
    // a slow phone, so the claim is visible while it lasts
    rig.sim.phone(rig.serial).setFaults({ latency: 'realistic' });
    const taskId = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 500, mode: 'dry_run' });
    const busy = await until(
      () => deviceOf(rig.op, rig.device.deviceId),
      (d) => d?.current_task_id === taskId,
      'the phone holding the task',
    );
    expect(busy?.claimed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const task = await rig.waitFor(taskId, ['NEEDS_MANUAL', 'DRY_RUN_PASSED']);
    expect(task.reason_code).toBe('GATE1_OVER_CAP');

    const idle = await deviceOf(rig.op, rig.device.deviceId);
    expect(idle?.current_task_id).toBeNull();
    // a price-gate stop is the task's matter, not the phone's: 最近错误 names only phone faults
    // (domain/device-faults.ts; test/ui/device-faults.test.ts)
    expect(idle?.last_error).toBeNull();

    // rename: validated above, audited with both names here, and shown wherever the task is
    const res = await rig.op.request('PATCH', `/api/devices/${rig.device.deviceId}`, { display_name: '广州-07' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ device_id: rig.device.deviceId, display_name: '广州-07' });
    const audit = (await auditRows(rig.admin, 'device.rename')).filter((a) => a.target_id === rig.device.deviceId);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details_json ?? '{}')).toEqual({ from: 'purchase phone', to: '广州-07' });
    expect((await deviceOf(rig.op, rig.device.deviceId))?.display_name).toBe('广州-07');

    const detail = (await rig.op.get(`/api/tasks/${taskId}`)).body as TaskView;
    expect({ device_id: detail.device_id, device_name: detail.device_name }).toEqual({
      device_id: rig.device.deviceId,
      device_name: '广州-07',
    });
    const list = (await rig.op.get('/api/tasks')).body as Page<TaskListItem>;
    expect(list.items.find((t) => t.task_id === taskId)?.device_name).toBe('广州-07');
  });

  it('revokes a device: audited, gone from the list, and its token stops working', async () => {
    const issued = (await rig.op.post('/api/devices', { display_name: '待吊销' })).body as IssuedDeviceView;
    const auth = { authorization: `Bearer ${issued.device_id}.${issued.token}` };
    expect((await deviceRequest(rig.admin, auth, 'POST', '/api/device/register', { body: REGISTRATION })).status).toBe(
      200,
    );

    const res = await rig.op.post(`/api/devices/${issued.device_id}/revoke`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ device_id: issued.device_id, status: 'REVOKED', already_revoked: false });
    expect((await deviceRequest(rig.admin, auth, 'POST', '/api/device/register', { body: REGISTRATION })).status).toBe(
      401,
    );
    expect(await deviceOf(rig.op, issued.device_id)).toBeUndefined();
    expect((await auditRows(rig.admin, 'device.revoke')).filter((a) => a.target_id === issued.device_id)).toHaveLength(
      1,
    );

    // again: nothing more to do, nothing more recorded; a revoked device keeps its name
    expect((await rig.op.post(`/api/devices/${issued.device_id}/revoke`)).body).toMatchObject({
      already_revoked: true,
    });
    expect((await auditRows(rig.admin, 'device.revoke')).filter((a) => a.target_id === issued.device_id)).toHaveLength(
      1,
    );
    const rename = await rig.op.request('PATCH', `/api/devices/${issued.device_id}`, { display_name: '新名字' });
    expect(rename.status).toBe(409);
    expect(rename.body).toMatchObject({ error: { code: 'DEVICE_REVOKED' } });
  });

  it("is online while its worker polls the phone's queue, however old last_seen_at is, and offline once the worker stops", async () => {
    const id = rig.device.deviceId;
    await until(
      () => deviceOf(rig.op, id),
      (d) => d?.online === true,
      'the phone online',
    );
    // 11 minutes without a registration or claim: the old rule (last_seen_at within 10) said 离线
    await backdateLastSeen(rig.admin, id, 11);
    const idle = await deviceOf(rig.op, id);
    expect(idle).toMatchObject({ online: true, online_source: 'temporal', current_task_id: null });
    expect(Date.now() - Date.parse(idle?.last_seen_at ?? '')).toBeGreaterThan(10 * 60_000);

    await rig.stopWorker();
    // the stopped worker's last poll ages out of the window; nothing else changes in between
    const tries = Math.ceil((POLLER_WINDOW_MS + 90_000) / 250);
    const gone = await until(
      () => deviceOf(rig.op, id),
      (d) => d?.online === false,
      'the phone offline',
      tries,
    );
    expect(gone).toMatchObject({ online: false, online_source: 'temporal' });
  });
});

describe('devices while Temporal does not answer', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  beforeAll(async () => {
    admin = await startTestAdmin({ temporal: { address: '127.0.0.1:9', namespace: 'nowhere' }, runWorker: false });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('falls back to last_seen_at and says so', async () => {
    const issued = (await op.post('/api/devices', { display_name: '离线备用' })).body as IssuedDeviceView;
    const auth = { authorization: `Bearer ${issued.device_id}.${issued.token}` };
    expect((await deviceRequest(admin, auth, 'POST', '/api/device/register', { body: REGISTRATION })).status).toBe(200);
    expect(await deviceOf(op, issued.device_id)).toMatchObject({ online: true, online_source: 'last_seen' });
    await backdateLastSeen(admin, issued.device_id, 11);
    const later = await deviceOf(op, issued.device_id);
    expect(later).toMatchObject({ online: false, online_source: 'last_seen' });
  });

  it('names why a phone takes no purchase by the claim rule (claim_blocked_by), and a phone host by its name', async () => {
    const issued = (await op.post('/api/devices', { display_name: '电量测试' })).body as IssuedDeviceView;
    const auth = { authorization: `Bearer ${issued.device_id}.${issued.token}` };
    expect((await deviceRequest(admin, auth, 'POST', '/api/device/register', { body: REGISTRATION })).status).toBe(200);
    expect(await deviceOf(op, issued.device_id)).toMatchObject({ claim_blocked_by: null, host_name: null });
    const health = async (h: { battery_level: number; charging: number; free_storage_mb: number }) => {
      const row = { ...h, screen: 'on' as const, checked_at: toUtcTimestamp(new Date()), app_version: null };
      await admin.db
        .insertInto('device_health')
        .values({ device_id: issued.device_id, ...row })
        .onConflict((oc) => oc.column('device_id').doUpdateSet(row))
        .execute();
      return (await deviceOf(op, issued.device_id))?.claim_blocked_by;
    };
    expect(await health({ battery_level: 12, charging: 0, free_storage_mb: 20_000 })).toEqual({
      reason_code: 'BATTERY_LOW',
      reason_zh: '电量过低且未充电',
    });
    expect(await health({ battery_level: 80, charging: 1, free_storage_mb: 300 })).toEqual({
      reason_code: 'STORAGE_LOW',
      reason_zh: '剩余存储低于 500 MB',
    });
    await backdateLastSeen(admin, issued.device_id, 4);
    expect((await deviceOf(op, issued.device_id))?.claim_blocked_by?.reason_code).toBe('DEVICE_OFFLINE');

    const host = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, '机房-2');
    const reported = await deviceRequest(
      admin,
      { authorization: `Bearer ${host.hostId}.${host.token}` },
      'POST',
      '/api/host/phones',
      { body: { serial: 'named-host-phone', model: 'Redmi Note 11', android_version: '12', app_version: '8.17.0' } },
    );
    expect(reported.status).toBe(200);
    const phone = (await devices(op)).find((d) => d.serial === 'named-host-phone');
    expect(phone).toMatchObject({ state: 'pending', host_id: host.hostId, host_name: '机房-2' });
    expect(phone?.claim_blocked_by).toEqual({ reason_code: 'DEVICE_PENDING', reason_zh: '待批准，还不能领取任务' });
  });
});
