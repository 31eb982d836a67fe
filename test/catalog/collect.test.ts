import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { catalogActivities } from '../../activities/admin/catalog';
import { CollectStaleAfterMs } from '../../domain/catalog';
import { revokeDeviceCredential } from '../../admin/auth/device-credentials';
import { issueTestDevice, loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { skusJson, upload } from './helpers';
import { buildWorkbook } from './workbook';

const WF = (id: string) => `collect/${id}`;

describe('collect: admin activities and the start route (docs/architecture.md §4.1)', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let acts: ReturnType<typeof catalogActivities>;
  beforeAll(async () => {
    admin = await startTestAdmin();
    op = await loginOperator(admin);
    acts = catalogActivities(admin.db);
    await upload(
      op,
      await buildWorkbook(
        ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
        ['5001', '5002', '5003', '5004', '5005'].map((g) => ({ 商品ID: g, 商品名稱: `商品 ${g}`, 商品規格ID: '-' })),
      ),
    );
    for (const [g, pdd] of [
      ['5001', '600001'],
      ['5002', '600002'],
      ['5003', '600003'],
      ['5004', '600004'],
      ['5005', '600005'],
    ] as const) {
      expect(
        (
          await op.put(`/api/shopee/products/${g}/pdd-link`, {
            url: `https://mobile.yangkeduo.com/goods.html?goods_id=${pdd}`,
          })
        ).status,
      ).toBe(200);
    }
  });
  afterAll(async () => {
    await admin?.close();
  });

  const inRun = (pdd: string, runId: string) =>
    new MockActivityEnvironment(
      { workflowExecution: { workflowId: WF(pdd), runId } },
      { logger: new DefaultLogger('ERROR') },
    );
  const pddRow = (g: string) =>
    admin.db.selectFrom('pdd_products').selectAll().where('goods_id', '=', g).executeTakeFirstOrThrow();

  it('collecting → collected, which device ran it, and a retry changes nothing', async () => {
    const env = inRun('600001', 'run-a');
    await env.run(acts.markCollecting, { pddGoodsId: '600001', workflowId: WF('600001'), deviceId: 'phone-1' });
    expect(await pddRow('600001')).toMatchObject({
      collect_status: 'collecting',
      collect_device_id: 'phone-1',
      collect_run_id: 'run-a',
    });
    const result = skusJson('600001', [
      { color: '黑色', size: 'M', price_cent: 1256 },
      { color: '黑色', size: 'L', price_cent: 1256 },
    ]);
    const first = await env.run(acts.saveCollectResult, {
      pddGoodsId: '600001',
      workflowId: WF('600001'),
      deviceId: 'phone-1',
      result,
      counters: { screens: 3 },
    });
    expect(first).toEqual({ status: 'collected', skus: 2 });
    const saved = await pddRow('600001');
    expect(saved).toMatchObject({
      collect_status: 'collected',
      title: result.title,
      shop_name: '测试旗舰店',
      collect_msg: null,
    });
    expect(JSON.parse(saved.skus_json ?? 'null')).toEqual(result);

    // retried activities (same run): same outcome, nothing changes
    await env.run(acts.markCollecting, { pddGoodsId: '600001', workflowId: WF('600001'), deviceId: 'phone-1' });
    const again = await env.run(acts.saveCollectResult, {
      pddGoodsId: '600001',
      workflowId: WF('600001'),
      deviceId: 'phone-1',
      result: skusJson('600001', [{ color: 'X', size: 'Y', price_cent: 1 }]),
    });
    expect(again).toEqual({ status: 'collected', skus: 2 });
    await env.run(acts.markCollectFailed, {
      pddGoodsId: '600001',
      workflowId: WF('600001'),
      code: 'LATE',
      message: 'late duplicate',
    });
    const after = await pddRow('600001');
    expect(after.collect_status).toBe('collected');
    expect(JSON.parse(after.skus_json ?? 'null')).toEqual(result);

    const task = await admin.db
      .selectFrom('tasks')
      .selectAll()
      .where('task_id', '=', `${WF('600001')}/run-a`)
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({
      task_type: 'collect',
      status: 'succeeded',
      device_id: 'phone-1',
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=600001',
    });
    expect(JSON.parse(task.result_data ?? '{}')).toMatchObject({
      counters: { screens: 3 },
      result: { goods_id: '600001' },
    });
    expect(await admin.db.selectFrom('task_claims').selectAll().where('task_id', '=', task.task_id).execute()).toEqual([
      expect.objectContaining({ device_id: 'phone-1' }),
    ]);
  });

  it('another goods_id → rejected COLLECT_GOODS_MISMATCH (non-retryable), previous data kept', async () => {
    const good = skusJson('600002', [{ color: '红', size: 'S', price_cent: 990 }]);
    await inRun('600002', 'run-1').run(acts.saveCollectResult, {
      pddGoodsId: '600002',
      workflowId: WF('600002'),
      deviceId: 'phone-1',
      result: good,
    });
    const env = inRun('600002', 'run-2');
    await env.run(acts.markCollecting, { pddGoodsId: '600002', workflowId: WF('600002'), deviceId: 'phone-2' });
    const wrong = skusJson('699999', [{ color: '蓝', size: 'XL', price_cent: 100 }]);
    const attempt = () =>
      env.run(acts.saveCollectResult, {
        pddGoodsId: '600002',
        workflowId: WF('600002'),
        deviceId: 'phone-2',
        result: wrong,
      });
    for (let i = 0; i < 2; i++) {
      const err = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApplicationFailure);
      expect(err).toMatchObject({ type: 'COLLECT_GOODS_MISMATCH', nonRetryable: true });
    }
    const row = await pddRow('600002');
    expect(JSON.parse(row.skus_json ?? 'null')).toEqual(good);
    expect(row).toMatchObject({ title: good.title, collect_status: 'failed', collect_code: 'COLLECT_GOODS_MISMATCH' });
    expect(row.collect_msg).toContain('699999');
    const detail = (await op.get('/api/pdd/products/600002')).body as { collect_msg: string; skus_json: unknown };
    expect(detail.skus_json).toEqual(good);
    expect(detail.collect_msg).toContain('已拒绝');
    expect(
      await admin.db
        .selectFrom('tasks')
        .select('status')
        .where('task_id', '=', `${WF('600002')}/run-2`)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'rejected' });
  });

  it('zero SKUs → failed, not collected; a failure shows its message and artifact location', async () => {
    const env = inRun('600003', 'run-z');
    await env.run(acts.markCollecting, { pddGoodsId: '600003', workflowId: WF('600003'), deviceId: 'phone-3' });
    await expect(
      env.run(acts.saveCollectResult, {
        pddGoodsId: '600003',
        workflowId: WF('600003'),
        deviceId: 'phone-3',
        result: skusJson('600003', []),
      }),
    ).rejects.toMatchObject({
      type: 'COLLECT_NO_SKUS',
    });
    expect(await pddRow('600003')).toMatchObject({
      collect_status: 'failed',
      collect_code: 'COLLECT_NO_SKUS',
      skus_json: null,
    });

    const env2 = inRun('600004', 'run-f');
    await env2.run(acts.markCollecting, { pddGoodsId: '600004', workflowId: WF('600004'), deviceId: 'phone-4' });
    await env2.run(acts.markCollectFailed, {
      pddGoodsId: '600004',
      workflowId: WF('600004'),
      code: 'PAGE_UNKNOWN',
      message: '页面结构不认识',
      artifactPath: 'artifacts/collect-600004/',
    });
    await env2.run(acts.markCollectFailed, {
      pddGoodsId: '600004',
      workflowId: WF('600004'),
      code: 'OTHER',
      message: 'retry must not change it',
    });
    const detail = (await op.get('/api/pdd/products/600004')).body;
    expect(detail).toMatchObject({
      collect_status: 'failed',
      collect_code: 'PAGE_UNKNOWN',
      collect_msg: '页面结构不认识',
      artifact_ref: 'phone-4:artifacts/collect-600004/',
    });
    expect((await op.get('/api/shopee/products?state=failed')).body).toMatchObject({
      items: [{ goods_id: '5002' }, { goods_id: '5003' }, { goods_id: '5004' }],
    });
  });

  it('a late activity of an older run never overwrites a newer collect', async () => {
    const old = inRun('600001', 'run-old');
    // run-old's task row is created now, after run-a: pretend it is older by date
    await old.run(acts.markCollecting, { pddGoodsId: '600001', workflowId: WF('600001'), deviceId: 'phone-9' });
    await admin.db
      .updateTable('tasks')
      .set({ created_at: '2000-01-01T00:00:00Z' })
      .where('task_id', '=', `${WF('600001')}/run-old`)
      .execute();
    await admin.db
      .updateTable('pdd_products')
      .set({ collect_status: 'collected', collect_run_id: 'run-a' })
      .where('goods_id', '=', '600001')
      .execute();
    await old.run(acts.markCollectFailed, {
      pddGoodsId: '600001',
      workflowId: WF('600001'),
      code: 'TIMEOUT',
      message: 'old run',
    });
    expect(await pddRow('600001')).toMatchObject({ collect_status: 'collected', collect_run_id: 'run-a' });
  });

  it('POST collect starts collect/<id> once (USE_EXISTING), with search attributes; 404 for unknown goods', async () => {
    const res = await op.post('/api/pdd/products/600005/collect');
    expect(res.status).toBe(202);
    const body = res.body as { workflow_id: string; run_id: string; started: boolean };
    expect(body).toMatchObject({ workflow_id: 'collect/600005', started: true });
    const again = await op.post('/api/pdd/products/600005/collect');
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ workflow_id: 'collect/600005', run_id: body.run_id, started: false });

    const client = await admin.temporal.client();
    const handle = client.workflow.getHandle('collect/600005');
    const desc = await handle.describe();
    expect(desc.runId).toBe(body.run_id);
    expect(desc.taskQueue).toBe('admin');
    expect(desc.type).toBe('collect');
    expect(desc.searchAttributes).toMatchObject({ GoodsId: ['600005'] });
    expect(desc.raw.executionConfig?.workflowExecutionTimeout?.seconds?.toString()).toBe(
      String(CollectStaleAfterMs / 1000),
    );
    expect(await pddRow('600005')).toMatchObject({
      collect_status: 'collecting',
      collect_workflow_id: 'collect/600005',
      collect_run_id: body.run_id,
    });
    expect(await admin.db.selectFrom('tasks').selectAll().where('pdd_goods_id', '=', '600005').execute()).toHaveLength(
      1,
    );
    expect(
      await admin.db.selectFrom('audit_log').selectAll().where('action', '=', 'pdd.collect.start').execute(),
    ).toHaveLength(2);
    await handle.terminate('test done').catch(() => undefined);

    expect((await op.post('/api/pdd/products/123456789/collect')).status).toBe(404);
  });

  it('a phone revoked mid-collect stores nothing: DEVICE_REVOKED, the SKUs and the submission not kept, earlier data kept', async () => {
    const before = await pddRow('600001');
    expect(before.collect_status).toBe('collected');
    const phone = await issueTestDevice(admin, 'collect phone');
    const env = inRun('600001', 'run-revoked');
    await env.run(acts.markCollecting, { pddGoodsId: '600001', workflowId: WF('600001'), deviceId: phone.deviceId });
    await revokeDeviceCredential(admin.db, { kind: 'operator', name: 'admin' }, phone.deviceId);
    await expect(
      env.run(acts.saveCollectResult, {
        pddGoodsId: '600001',
        workflowId: WF('600001'),
        deviceId: phone.deviceId,
        result: skusJson('600001', [{ color: '白色', size: 'S', price_cent: 999 }]),
      }),
    ).rejects.toMatchObject({ type: 'DEVICE_REVOKED', nonRetryable: true });
    const after = await pddRow('600001');
    expect(after).toMatchObject({
      collect_status: 'failed',
      collect_code: 'DEVICE_REVOKED',
      skus_json: before.skus_json,
      collected_at: before.collected_at,
    });
    const task = await admin.db
      .selectFrom('tasks')
      .select(['status', 'error_code', 'result_data'])
      .where('task_type', '=', 'collect')
      .where('run_id', '=', 'run-revoked')
      .executeTakeFirstOrThrow();
    expect(task).toEqual({ status: 'failed', error_code: 'DEVICE_REVOKED', result_data: null });
  });
});
