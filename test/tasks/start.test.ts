import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../platform/network';
import { startDevServer, type DevServer } from '../../temporal/dev-server';
import { collectedInTestDb } from '../collected';
import { loginOperator, startTestAdmin, tempDataDir, type TestAdmin } from '../harness';
import { temporalDataConverter } from '../../temporal/codec';

/** a goods of the phone simulator's catalog, collected before the drafts (a draft needs a collect) */
const GOODS_ID = '937122477375';
const draft = (quantity: number) => ({
  type: 'purchase',
  pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${GOODS_ID}`,
  pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
  quantity,
  max_total_price_cent: 5000,
});

describe('starting purchases', () => {
  let admin: TestAdmin | undefined;
  let server: DevServer | undefined;
  afterEach(async () => {
    await admin?.close();
    await server?.stop();
    admin = undefined;
    server = undefined;
  });

  it('refuses the whole start when one task is over safety.max_quantity, changing nothing', async () => {
    admin = await startTestAdmin();
    const op = await loginOperator(admin);
    await collectedInTestDb(admin.db, GOODS_ID);
    const ok = (await op.post('/api/tasks', draft(3))).body as { task_id: string; version: number };
    const over = (await op.post('/api/tasks', draft(4))).body as { task_id: string; version: number };
    // the limit lowered after the drafts were saved (a save over it is refused: test/tasks/drafts.test.ts)
    await admin.db
      .insertInto('app_settings')
      .values({ setting_key: 'safety.max_quantity', value_json: '3', updated_at: '2026-01-01T00:00:00Z' })
      .execute();
    const res = await op.post('/api/tasks/start', {
      tasks: [ok, over].map((t) => ({ task_id: t.task_id, version: t.version })),
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: { code: 'START_REFUSED', details: { tasks: [{ task_id: over.task_id, code: 'QUANTITY_OVER_LIMIT' }] } },
    });
    const rows = await admin.db
      .selectFrom('tasks')
      .select(['task_id', 'status', 'version'])
      .where('task_type', '=', 'purchase')
      .orderBy('task_id')
      .execute();
    expect(rows).toEqual([
      { task_id: ok.task_id, status: 'DRAFT', version: 1 },
      { task_id: over.task_id, status: 'DRAFT', version: 1 },
    ]);
    expect(await admin.db.selectFrom('order_authorizations').select('id').execute()).toEqual([]);
  });

  it('loses nothing when Temporal is down at the start: the sweep starts the workflow once it is back', async () => {
    const dir = tempDataDir('sweep');
    const port = await freePort();
    admin = await startTestAdmin({
      temporal: { address: `127.0.0.1:${port}`, namespace: 'cmautobuy' },
      waitForWorker: false,
      purchaseSweepIntervalMs: 500,
    });
    const op = await loginOperator(admin);
    await collectedInTestDb(admin.db, GOODS_ID);
    const task = (await op.post('/api/tasks', draft(1))).body as { task_id: string; version: number };

    const started = await op.post('/api/tasks/start', { tasks: [{ task_id: task.task_id, version: task.version }] });
    expect(started.status).toBe(200);
    const auth = await admin.db.selectFrom('order_authorizations').selectAll().executeTakeFirstOrThrow();
    expect(auth.workflow_started_at).toBeNull();
    expect(
      (
        await admin.db
          .selectFrom('tasks')
          .select('status')
          .where('task_type', '=', 'purchase')
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('PENDING');

    server = await startDevServer({
      dbFile: path.join(dir, 'temporal.db'),
      namespace: 'cmautobuy',
      port,
      uiPort: null,
      logFile: path.join(dir, 'temporal.log'),
    });
    const deadline = Date.now() + 60_000;
    let startedAt: string | null = null;
    while (!startedAt && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      startedAt = (
        await admin.db.selectFrom('order_authorizations').select('workflow_started_at').executeTakeFirstOrThrow()
      ).workflow_started_at;
    }
    expect(startedAt).not.toBeNull();
    const client = new Client({
      dataConverter: temporalDataConverter(),
      connection: await Connection.connect({ address: server.address }),
      namespace: 'cmautobuy',
    });
    const desc = await client.workflow.getHandle(auth.workflow_id).describe();
    expect(desc.status.name).toBe('RUNNING');
    expect(desc.type).toBe('purchase');
    // Sweeping again never starts a second execution of the same authorization.
    await new Promise((r) => setTimeout(r, 1_500));
    const runs = await client.workflow.list({ query: `WorkflowId = '${auth.workflow_id}'` });
    let count = 0;
    for await (const _ of runs) count++;
    expect(count).toBe(1);
    await client.connection.close();
  });
});
