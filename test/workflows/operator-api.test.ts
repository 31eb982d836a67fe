import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { sql } from 'kysely';
import { openMigratedAdminDb, type AdminDb } from '../../admin/db/database';
import { actOnTask } from '../../admin/purchase/actions';
import { startPurchaseWorkflow } from '../../admin/purchase/workflow-client';
import { ApiError } from '../../domain/api-error';
import { OPERATOR_WAIT_DAYS_DEFAULT } from '../../domain/purchase/workflow-types';
import { TemporalGateway } from '../../admin/temporal/gateway';
import { payloadCodec } from '../../temporal/codec';
import { nowUtc } from '../../domain/time';
import { sharedTemporal, tempDataDir, testLogger } from '../harness';
import { fakePurchaseRig, pendingOrder, stateOf, until } from './fake-purchase';

/**
 * The admin's side of an operator action (admin/purchase/actions.ts) against a purchase workflow
 * with fake activities: the answer says what happened — applied with the new state, superseded
 * by the workflow's own reconcile, or refused when the write failed — every request leaves an
 * audit row, and a reused Idempotency-Key with another body is refused.
 */
describe('operator actions: the answer is what happened', () => {
  const { rig, setUp, tearDown, reset, start } = fakePurchaseRig('api');
  let db: AdminDb;
  let temporal: TemporalGateway;
  const actor = { kind: 'operator' as const, name: 'op' };
  let n = 0;

  beforeAll(async () => {
    await setUp();
    db = await openMigratedAdminDb(path.join(tempDataDir('operator-api'), 'admin.db'));
    temporal = new TemporalGateway({ address: sharedTemporal().address, namespace: rig.namespace }, testLogger());
  });
  afterAll(async () => {
    await tearDown();
    await db?.destroy();
  });
  beforeEach(reset);

  /** A purchase task row for the workflow, in `status` (the fake activities write no DB). */
  async function taskFor(taskId: string, handle: WorkflowHandle, status: string): Promise<void> {
    await db
      .insertInto('tasks')
      .values({
        task_id: taskId,
        task_type: 'purchase',
        status,
        version: 3,
        workflow_id: handle.workflowId,
        pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
        pdd_options: '{}',
        quantity: 1,
        max_total_price_cent: 2000,
        execution_mode: 'live',
        created_at: nowUtc(),
        updated_at: nowUtc(),
      } as never)
      .execute();
  }

  const audits = async (taskId: string) =>
    (
      await db
        .selectFrom('audit_log')
        .select(['action', sql<string>`json_extract(details_json, '$.request_id')`.as('request_id')])
        .where('target_id', '=', taskId)
        .orderBy('id')
        .execute()
    ).map((r) => `${r.action} ${r.request_id}`);

  it('录入核对结果 racing the workflow own reconcile answers superseded with the state that won, audited; the key reused with another body is 422', async () => {
    const taskId = `api-${++n}`;
    let open!: () => void;
    rig.script.pendingGate = new Promise<void>((r) => (open = r));
    rig.script.observation = { outcome: 'unknown', orderNo: null, orderedAtRaw: null };
    rig.script.pending = [pendingOrder('PO-MATCHED')];
    const handle = await start({ taskId });
    await taskFor(taskId, handle, 'RECONCILIATION_REQUIRED');
    await stateOf(handle, 'RECONCILIATION_REQUIRED');
    await until(() => rig.calls.activities.includes('readPendingOrders'));
    const resolution = { outcome: 'created' as const, orderNo: 'ORDER-FIRST' };
    const answer = actOnTask({ db, temporal }, actor, taskId, 'resolve', resolution, 'key-1');
    // the workflow's own check decides once the update is accepted
    for (;;) {
      const events = (await handle.fetchHistory()).events ?? [];
      if (events.some((e) => e.workflowExecutionUpdateAcceptedEventAttributes)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    open();
    expect(await answer).toEqual({ result: 'superseded', status: 'WAITING_PAYMENT' });
    expect(await audits(taskId)).toEqual([
      `task.request ${taskId}/resolve/key-1`,
      `task.request_superseded ${taskId}/resolve/key-1`,
    ]);
    // the same request again: the same answer, nothing sent
    expect(await actOnTask({ db, temporal }, actor, taskId, 'resolve', resolution, 'key-1')).toEqual({
      result: 'superseded',
      status: 'WAITING_PAYMENT',
    });
    // the same key with another body: refused, nothing written
    const before = await audits(taskId);
    const reused = await actOnTask(
      { db, temporal },
      actor,
      taskId,
      'resolve',
      { outcome: 'not_created' },
      'key-1',
    ).catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(ApiError);
    expect(reused).toMatchObject({ kind: 'unprocessable', code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await audits(taskId)).toEqual(before);
    await handle.terminate('test over');
  });

  it('标记已付款 whose write fails for good answers 409 OPERATOR_WRITE_FAILED, never done; asking again is a new request that applies', async () => {
    const taskId = `api-${++n}`;
    const handle = await start({ taskId });
    await taskFor(taskId, handle, 'WAITING_PAYMENT');
    await stateOf(handle, 'WAITING_PAYMENT');
    rig.script.failingStatus = 'SUCCEEDED';
    const failed = await actOnTask({ db, temporal }, actor, taskId, 'mark-paid').catch((e: unknown) => e);
    expect(failed).toMatchObject({ kind: 'conflict', code: 'OPERATOR_WRITE_FAILED' });
    expect(rig.calls.statuses).not.toContain('SUCCEEDED');
    rig.script.failingStatus = undefined;
    // the task's version did not change, yet the second request is not answered by the first update
    expect(await actOnTask({ db, temporal }, actor, taskId, 'mark-paid')).toEqual({
      result: 'applied',
      status: 'SUCCEEDED',
    });
    expect(await handle.result()).toBe('SUCCEEDED');
    expect(await audits(taskId)).toEqual([
      `task.request ${taskId}/mark-paid/v3`,
      `task.request_failed ${taskId}/mark-paid/v3`,
      `task.request ${taskId}/mark-paid/v3/r1`,
    ]);
  });

  it('a purchase closed after the operator wait in 需人工处理 is settled by the admin: 重置 → DRAFT, audited', async () => {
    const taskId = `api-${++n}`;
    rig.script.fence = { clickPermitted: false, reason: 'FENCE_REFUSED', detail: 'authorization expired' };
    const handle = await start({ taskId, operatorWaitDays: 1 });
    await taskFor(taskId, handle, 'NEEDS_MANUAL');
    await stateOf(handle, 'NEEDS_MANUAL');
    // as the operator wait ending leaves it: the workflow closed, the task still 需人工处理
    await handle.terminate('the operator wait ended');
    expect(await actOnTask({ db, temporal }, actor, taskId, 'reset')).toEqual({ result: 'applied', status: 'DRAFT' });
    const row = await db
      .selectFrom('tasks')
      .select(['status', 'authorization_id'])
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'DRAFT', authorization_id: null });
    expect(await audits(taskId)).toEqual([`task.request ${taskId}/reset/v3`, `task.repaired ${taskId}/reset/v3`]);
  });

  it('a purchase starts with its summary and details for the Web UI and the operator wait', async () => {
    const workflowId = `purchase/api-start-${process.pid}/auth`;
    await startPurchaseWorkflow(temporal, workflowId, {
      taskId: 'api-start',
      authorizationId: 'auth',
      goodsId: '937122477375',
      goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
      options: { 颜色分类: '黑色', 尺码: 'M' },
      quantity: 2,
      maxTotalPriceCent: 4000,
      mode: 'dry_run',
      expiresAt: '2026-01-01T00:10:00Z',
    });
    const handle = rig.client.workflow.getHandle(workflowId);
    const d = await handle.describe();
    expect(await d.staticSummary()).toBe('采购 api-start · 商品 937122477375 · 试运行');
    expect(await d.staticDetails()).toContain('颜色分类=黑色，尺码=M × 2');
    const started = (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
    const [plain] = await payloadCodec().decode([started!.input!.payloads![0]!]);
    const input = defaultPayloadConverter.fromPayload(plain!);
    expect(input).toMatchObject({ operatorWaitDays: OPERATOR_WAIT_DAYS_DEFAULT });
    await handle.terminate('test over');
  });

  it('a refused request leaves its audit row too', async () => {
    const taskId = `api-${++n}`;
    const handle = await start({ taskId });
    await taskFor(taskId, handle, 'WAITING_PAYMENT');
    await stateOf(handle, 'WAITING_PAYMENT');
    const refused = await actOnTask({ db, temporal }, actor, taskId, 'reset').catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'conflict', code: 'ACTION_NOT_ALLOWED' });
    expect(await audits(taskId)).toEqual([
      `task.request ${taskId}/reset/v3`,
      `task.request_refused ${taskId}/reset/v3`,
    ]);
    await handle.terminate('test over');
  });
});
