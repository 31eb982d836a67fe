import { setAttention } from '../../admin/devices/attention';
import type { AttentionItem, AttentionQueue } from '../../domain/attention';
import type { PurchaseStatus } from '../../domain/purchase/status';
import {
  deviceRequest,
  getJson,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';

/**
 * 需处理 (`GET /api/attention`, docs/api.md §12.1): phones with attention and stopped purchase
 * tasks in one list, oldest first, in the operator's Chinese. The stops are written straight into
 * the admin DB, the way the purchase and the phone's status report leave them.
 */
const URL = 'https://mobile.yangkeduo.com/goods.html?goods_id=990001';

describe('需处理: what waits for a person', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let loggedOut: TestDevice;
  let paused: TestDevice;
  let revoked: TestDevice;

  const queue = async (): Promise<AttentionItem[]> => {
    const res = await op.get('/api/attention');
    expect(res.status).toBe(200);
    return (res.body as AttentionQueue).items;
  };
  const since = (deviceId: string, at: string) =>
    admin.db.updateTable('device_attention').set({ since: at }).where('device_id', '=', deviceId).execute();
  const task = (taskId: string, status: PurchaseStatus, reasonCode: string | null, updatedAt: string) =>
    admin.db
      .insertInto('tasks')
      .values({
        task_id: taskId,
        task_type: 'purchase',
        status,
        pdd_goods_url: URL,
        pdd_goods_id: '990001',
        pdd_options: JSON.stringify({ 颜色分类: '黑色', 尺码: 'M' }),
        quantity: 1,
        max_total_price_cent: 2000,
        execution_mode: 'dry_run',
        title: `商品 ${taskId}`,
        reason_code: reasonCode,
        created_at: '2026-08-01T00:00:00Z',
        updated_at: updatedAt,
      })
      .execute();

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    loggedOut = await issueTestDevice(admin, '一号机');
    paused = await issueTestDevice(admin, '二号机');
    revoked = await issueTestDevice(admin, '三号机');
    await issueTestDevice(admin, '空闲机'); // no attention: not listed
    await setAttention(admin.db, loggedOut.deviceId, 'LOGIN_REQUIRED');
    await since(loggedOut.deviceId, '2026-08-07T08:02:00Z');
    expect((await op.post(`/api/devices/${paused.deviceId}/pause`)).status).toBe(200);
    await since(paused.deviceId, '2026-08-07T08:04:00Z');
    await setAttention(admin.db, revoked.deviceId, 'CAPTCHA_REQUIRED');
    await since(revoked.deviceId, '2026-08-07T08:00:00Z');
    expect((await op.post(`/api/devices/${revoked.deviceId}/revoke`)).status).toBe(200);

    await task('stop-gate1', 'NEEDS_MANUAL', 'GATE1_OVER_CAP', '2026-08-07T08:03:00Z');
    await task('stop-unknown', 'RECONCILIATION_REQUIRED', 'SUBMIT_OUTCOME_UNKNOWN', '2026-08-07T08:01:00Z');
    await task('stop-no-reason', 'NEEDS_MANUAL', null, '2026-08-07T08:05:00Z');
    await task('stop-legacy', 'NEEDS_MANUAL', 'CAPTCHA', '2026-08-07T08:06:00Z');
    // not stops: a draft, a running task, the ordinary wait for payment, a finished one
    await task('draft', 'DRAFT', null, '2026-08-07T07:00:00Z');
    await task('ordering', 'ORDERING', null, '2026-08-07T07:00:00Z');
    await task('waiting-payment', 'WAITING_PAYMENT', null, '2026-08-07T07:00:00Z');
    await task('failed', 'FAILED', 'ORDER_NOT_MATCHED', '2026-08-07T07:00:00Z');
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('lists active phones with attention and stopped tasks, oldest first, in Chinese', async () => {
    const items = await queue();
    expect(items.map((i) => [i.kind, i.id, i.reason_code, i.since])).toEqual([
      ['task', 'stop-unknown', 'SUBMIT_OUTCOME_UNKNOWN', '2026-08-07T08:01:00Z'],
      ['device', loggedOut.deviceId, 'LOGIN_REQUIRED', '2026-08-07T08:02:00Z'],
      ['task', 'stop-gate1', 'GATE1_OVER_CAP', '2026-08-07T08:03:00Z'],
      ['device', paused.deviceId, 'PAUSED_BY_OPERATOR', '2026-08-07T08:04:00Z'],
      ['task', 'stop-no-reason', 'NEEDS_MANUAL', '2026-08-07T08:05:00Z'],
      // an older spelling reads as the code it became
      ['task', 'stop-legacy', 'CAPTCHA_REQUIRED', '2026-08-07T08:06:00Z'],
    ]);
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.get(loggedOut.deviceId)).toMatchObject({ title: '一号机', reason_zh: expect.stringContaining('登录') });
    expect(byId.get('stop-gate1')).toMatchObject({
      title: '商品 stop-gate1',
      reason_zh: '闸门一：单价 × 数量超过授权最高总价',
    });
    expect(byId.get('stop-unknown')?.reason_zh).toBe('已点击提交，但结果不明确');
    expect(byId.get('stop-no-reason')?.reason_zh).toBe('需人工处理');
    for (const item of items) expect(item.reason_zh).toMatch(/^[^A-Za-z]+$/u);
  });

  it('a resumed phone leaves the list; a revoked one was never on it', async () => {
    // no worker reads it: the stop stays, checking, until a read comes (device-worker/runtime/resume-check.ts)
    expect((await op.post(`/api/devices/${loggedOut.deviceId}/resume`)).status).toBe(202);
    expect((await queue()).map((i) => i.id)).toContain(loggedOut.deviceId);
    const still = await deviceRequest(admin, loggedOut, 'POST', '/api/device/resume-check', {
      body: { ok: false, reason_code: 'LOGIN_REQUIRED', page: 'login' },
    });
    expect(still.status).toBe(200);
    expect((await op.post(`/api/devices/${loggedOut.deviceId}/resume`)).status).toBe(202);
    const read = await deviceRequest(admin, loggedOut, 'POST', '/api/device/resume-check', {
      body: { ok: true, page: 'home' },
    });
    expect(read.status).toBe(200);
    const ids = (await queue()).map((i) => i.id);
    expect(ids).not.toContain(loggedOut.deviceId);
    expect(ids).not.toContain(revoked.deviceId);
    // its attention row outlives the revoke: the queue leaves it out, nothing deleted it
    const kept = await admin.db
      .selectFrom('device_attention')
      .select('reason_code')
      .where('device_id', '=', revoked.deviceId)
      .executeTakeFirst();
    expect(kept?.reason_code).toBe('CAPTCHA_REQUIRED');
    expect(ids).toContain(paused.deviceId);
  });

  it('needs an operator session', async () => {
    const res = await getJson(`${admin.url}/api/attention`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });
});
