import path from 'node:path';
import SQLite from 'better-sqlite3';
import { collectedInTestDb } from '../collected';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from './setup';

/**
 * Which waiting task a free phone takes (docs/architecture.md §3): higher priority first, then
 * the one that has waited longest. Tasks wait for a phone with their claims scheduled on the
 * `devices` queue; the one phone then comes up and takes them one after the other.
 */
describe('claims: priority, then first come first served', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig({ withWorker: false });
  });
  afterAll(async () => {
    await rig?.close();
  });

  const draft = async (priority?: number) => {
    await collectedInTestDb(rig.admin.db, BLACK_M.goodsId); // a draft needs a collect
    const res = await rig.op.post('/api/tasks', {
      type: 'purchase',
      pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${BLACK_M.goodsId}`,
      pdd_options: BLACK_M.options,
      quantity: 1,
      max_total_price_cent: 2000,
      execution_mode: 'dry_run',
      ...(priority !== undefined ? { priority } : {}),
    });
    expect(res.status).toBe(201);
    return res.body as { task_id: string; version: number };
  };

  /** Starts the task and waits until its workflow waits on the claim queue. */
  const startAndQueue = async (d: { task_id: string; version: number }): Promise<string> => {
    const res = await rig.op.post('/api/tasks/start', { tasks: [{ task_id: d.task_id, version: d.version }] });
    expect(res.status).toBe(200);
    const workflowId = (await rig.task(d.task_id)).workflow_id!;
    const client = await rig.admin.temporal.client();
    for (;;) {
      const desc = await client.workflow.getHandle(workflowId).describe();
      if (desc.raw.pendingActivities?.some((a) => a.activityType?.name === 'claimDevice')) return workflowId;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('priority is set on a draft, shown, and refused out of range with nothing written', async () => {
    const d = await draft(2);
    expect((await rig.task(d.task_id)).priority).toBe(2);
    const patched = await rig.op.request('PATCH', `/api/tasks/${d.task_id}`, { version: d.version, priority: -1 });
    expect(patched.status).toBe(200);
    expect((await rig.task(d.task_id)).priority).toBe(-1);
    expect((await draft()).task_id).toBeTruthy();

    const before = await rig.admin.db.selectFrom('tasks').select('task_id').execute();
    for (const priority of [3, -3, 1.5, '1']) {
      const res = await rig.op.post('/api/tasks', {
        type: 'purchase',
        pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${BLACK_M.goodsId}`,
        pdd_options: BLACK_M.options,
        quantity: 1,
        max_total_price_cent: 2000,
        priority,
      });
      expect(res.status).toBe(400);
    }
    const bad = await rig.op.request('PATCH', `/api/tasks/${d.task_id}`, { version: d.version + 1, priority: 9 });
    expect(bad.status).toBe(400);
    expect(await rig.admin.db.selectFrom('tasks').select('task_id').execute()).toEqual(before);
    expect((await rig.task(d.task_id)).priority).toBe(-1);
  });

  it('one free phone takes the higher priority first, then the older of two equal ones', async () => {
    const older = await startAndQueue(await draft());
    const younger = await startAndQueue(await draft(0));
    const urgent = await startAndQueue(await draft(1));
    const lowest = await startAndQueue(await draft(-2));

    await rig.startWorker();
    const ids = await rig.admin.db
      .selectFrom('tasks')
      .select('task_id')
      .where('workflow_id', 'in', [older, younger, urgent, lowest])
      .execute();
    // read from the DB, not over HTTP: the four dry runs keep the machine busy
    for (;;) {
      const done = await rig.admin.db
        .selectFrom('tasks')
        .select(['task_id', 'status'])
        .where(
          'task_id',
          'in',
          ids.map((t) => t.task_id),
        )
        .execute();
      // a dry run that stopped instead says why here rather than at the test's timeout
      expect(done.filter((t) => !['PENDING', 'CLAIMED', 'ORDERING', 'DRY_RUN_PASSED'].includes(t.status))).toEqual([]);
      if (done.every((t) => t.status === 'DRY_RUN_PASSED')) break;
      await new Promise((r) => setTimeout(r, 250));
    }

    // the phone's own ledger: one claim row per workflow, in the order the phone took them
    const ledger = new SQLite(path.join(rig.dataDir, 'device', rig.device.deviceId, 'ledger.db'), { readonly: true });
    try {
      const claimed = (
        ledger.prepare('SELECT workflow_id FROM claims ORDER BY rowid').all() as Array<{ workflow_id: string }>
      )
        .map((r) => r.workflow_id)
        .filter((w) => [older, younger, urgent, lowest].includes(w));
      expect(claimed).toEqual([urgent, older, younger, lowest]);
    } finally {
      ledger.close();
    }
  }, 600_000);
});
