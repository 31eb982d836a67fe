import { setAttention } from '../../admin/devices/attention';
import type { AttentionItem } from '../../domain/attention';
import type { DraftWarning, TaskView } from '../../domain/purchase/views';
import { freePort } from '../../platform/network';
import { collectedInTestDb } from '../collected';
import { releaseAppVersionInTestDb } from '../purchase/setup';
import {
  deviceRequest,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';

/**
 * No silent wait (docs/api.md): a started task no phone takes says, per phone, why not
 * (`waiting_for`), its start answer warns NO_PHONE_CAN_CLAIM, it shows no phone until one claims,
 * and it is on 需处理. Temporal is down here, so nothing claims: the tasks stay PENDING while the
 * phones' states are set the way their workers and the operator set them.
 */
const GOODS_ID = '937122477375';
const draft = (mode: 'live' | 'dry_run') => ({
  type: 'purchase',
  pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${GOODS_ID}`,
  pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
  quantity: 1,
  max_total_price_cent: 5000,
  execution_mode: mode,
});
const HEALTHY = { battery_level: 80, charging: false, screen: 'on', free_storage_mb: 4000, app_version: '8.17.0' };

describe('a started task no phone can take', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  const phones: Record<string, TestDevice> = {};

  /** a phone whose worker registered and reports now (`health`: its last reading) */
  async function reporting(name: string, health: object = HEALTHY): Promise<TestDevice> {
    const d = await issueTestDevice(admin, name);
    const reg = await deviceRequest(admin, d, 'POST', '/api/device/register', {
      body: {
        serial: `serial-${Object.keys(phones).length + 1}`,
        model: 'Pixel',
        app_version: '8.17.0',
        capabilities: ['profile:8.17.0'],
      },
    });
    expect(reg.status).toBe(200);
    const status = await deviceRequest(admin, d, 'POST', '/api/device/status', {
      body: { adb_connected: true, health },
    });
    expect(status.status).toBe(200);
    phones[name] = d;
    return d;
  }
  async function start(taskId: string, version: number): Promise<DraftWarning[]> {
    const res = await op.post('/api/tasks/start', { tasks: [{ task_id: taskId, version }] });
    expect(res.status).toBe(200);
    return (res.body as { tasks: Array<{ warnings: DraftWarning[] }> }).tasks[0]!.warnings;
  }
  const task = async (id: string): Promise<TaskView> => (await op.get(`/api/tasks/${id}`)).body as TaskView;
  const queue = async (): Promise<AttentionItem[]> =>
    ((await op.get('/api/attention')).body as { items: AttentionItem[] }).items;
  const reasons = (t: TaskView) => Object.fromEntries(t.waiting_for.map((w) => [w.display_name, w.reason_code]));

  beforeAll(async () => {
    admin = await startTestAdmin({
      temporal: { address: `127.0.0.1:${await freePort()}`, namespace: 'cmautobuy' },
      waitForWorker: false,
      purchaseSweepIntervalMs: 3_600_000,
    });
    op = await loginOperator(admin);
    await collectedInTestDb(admin.db, GOODS_ID);
    const paused = await reporting('1-暂停机');
    expect((await op.post(`/api/devices/${paused.deviceId}/pause`)).status).toBe(200);
    await setAttention(admin.db, (await reporting('2-需处理机')).deviceId, 'LOGIN_REQUIRED');
    const held = await reporting('3-人工机');
    expect((await op.post(`/api/devices/${held.deviceId}/hold`)).status).toBe(200);
    const gone = await reporting('4-离线机');
    await admin.db
      .updateTable('devices')
      .set({ last_seen_at: '2026-01-01T00:00:00Z' })
      .where('device_id', '=', gone.deviceId)
      .execute();
    await reporting('5-低电机', { ...HEALTHY, battery_level: 5 });
  });
  afterAll(async () => {
    await admin?.close();
  });

  let waiting = '';
  it('says why per phone, warns at the start, shows no phone and goes to 需处理', async () => {
    const d = (await op.post('/api/tasks', draft('dry_run'))).body as { task_id: string; version: number };
    waiting = d.task_id;
    const warnings = await start(d.task_id, d.version);
    expect(warnings.map((w) => w.code)).toEqual(['NO_PHONE_CAN_CLAIM']);
    expect(warnings[0]!.message).toContain('1-暂停机（操作员已暂停）');
    // the phone of an earlier attempt is not the task's phone while it waits
    await admin.db
      .updateTable('tasks')
      .set({ device_id: phones['4-离线机']!.deviceId })
      .where('task_id', '=', d.task_id)
      .execute();

    const t = await task(d.task_id);
    expect(t.status).toBe('PENDING');
    expect(reasons(t)).toEqual({
      '1-暂停机': 'DEVICE_PAUSED',
      '2-需处理机': 'DEVICE_NEEDS_ATTENTION',
      '3-人工机': 'DEVICE_HELD',
      '4-离线机': 'DEVICE_OFFLINE',
      '5-低电机': 'BATTERY_LOW',
    });
    expect(t.waiting_for[0]).toEqual({
      device_id: phones['1-暂停机']!.deviceId,
      display_name: '1-暂停机',
      reason_code: 'DEVICE_PAUSED',
    });
    expect(t.warnings.map((w) => w.code)).toEqual(['NO_PHONE_CAN_CLAIM']);
    expect(t).toMatchObject({ device_id: null, device_name: null });
    const item = (await queue()).find((i) => i.id === d.task_id);
    expect(item).toMatchObject({ kind: 'task', reason_code: 'NO_PHONE_CAN_CLAIM', device_id: null });
    expect(item?.reason_zh).toContain('4-离线机（离线）');
  });

  it('a live task also waits for a released version; a free phone ends both waits', async () => {
    const free = await reporting('6-空闲机');
    // the dry run has a phone now
    const dry = await task(waiting);
    expect(dry.waiting_for).toEqual([]);
    expect(dry.warnings).toEqual([]);
    expect((await queue()).map((i) => i.id)).not.toContain(waiting);

    // no phone's PDD version is released: the live task waits, the release gate says so
    const d = (await op.post('/api/tasks', draft('live'))).body as { task_id: string; version: number };
    expect((await task(d.task_id)).warnings.map((w) => w.code)).toContain('APP_VERSION_NOT_RELEASED');
    const warnings = await start(d.task_id, d.version);
    expect(warnings.map((w) => w.code)).toEqual(['APP_VERSION_NOT_RELEASED', 'NO_PHONE_CAN_CLAIM']);
    expect(reasons(await task(d.task_id))['6-空闲机']).toBe('APP_VERSION_NOT_RELEASED');
    expect((await queue()).map((i) => i.id)).toContain(d.task_id);

    await releaseAppVersionInTestDb(admin);
    const live = await task(d.task_id);
    expect(live.waiting_for).toEqual([]);
    expect(live.warnings).toEqual([]);

    // a phone that is only busy comes free by itself: the task waits, but for nobody's action
    await admin.db
      .updateTable('tasks')
      .set({ status: 'ORDERING', device_id: free.deviceId })
      .where('task_id', '=', waiting)
      .execute();
    const busy = await task(d.task_id);
    expect(reasons(busy)['6-空闲机']).toBe('DEVICE_BUSY');
    expect(busy.warnings).toEqual([]);
    expect((await queue()).map((i) => i.id)).not.toContain(d.task_id);
  });
});
