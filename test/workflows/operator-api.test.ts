import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { sql } from 'kysely';
import { openMigratedAdminDb, type AdminDb } from '../../admin/db/database';
import { HttpError } from '../../admin/http/errors';
import { actOnTask } from '../../admin/purchase/actions';
import { TemporalGateway } from '../../admin/temporal/gateway';
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
    expect(reused).toBeInstanceOf(HttpError);
    expect(reused).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
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
    expect(failed).toMatchObject({ status: 409, code: 'OPERATOR_WRITE_FAILED' });
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

  it('a refused request leaves its audit row too', async () => {
    const taskId = `api-${++n}`;
    const handle = await start({ taskId });
    await taskFor(taskId, handle, 'WAITING_PAYMENT');
    await stateOf(handle, 'WAITING_PAYMENT');
    const refused = await actOnTask({ db, temporal }, actor, taskId, 'reset').catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 409, code: 'ACTION_NOT_ALLOWED' });
    expect(await audits(taskId)).toEqual([
      `task.request ${taskId}/reset/v3`,
      `task.request_refused ${taskId}/reset/v3`,
    ]);
    await handle.terminate('test over');
  });
});
