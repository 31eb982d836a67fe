import type { Client } from '@temporalio/client';
import { startPurchases } from '../../admin/purchase/start';
import { sweepUnstartedPurchases } from '../../admin/purchase/sweep';
import type { TemporalGateway } from '../../admin/temporal/gateway';
import { startTestAdmin, testLogger, type TestAdmin } from '../harness';

/**
 * 开始采购 of a batch larger than one round of workflow starts answers once its authorizations
 * are committed, not once Temporal has taken every start (admin/purchase/start.ts); a batch of one
 * round is answered once its workflows run. Temporal here is the real test server behind a gate
 * the test opens: a frontend that is slow to take starts, as a busy one is.
 */
describe('starting a batch', () => {
  let admin: TestAdmin;
  beforeAll(async () => {
    admin = await startTestAdmin();
  });
  afterAll(async () => {
    await admin?.close();
  });

  const actor = { kind: 'operator' as const, name: 'admin' };
  let seq = 0;
  async function drafts(n: number): Promise<Array<{ task_id: string; version: number }>> {
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const rows = Array.from({ length: n }, () => ({
      task_id: `batch-${++seq}`,
      task_type: 'purchase' as const,
      status: 'DRAFT' as const,
      version: 1,
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
      pdd_goods_id: '937122477375',
      pdd_options: JSON.stringify({ 颜色分类: '黑色', 尺码: 'M' }),
      quantity: 1,
      max_total_price_cent: 2000,
      execution_mode: 'dry_run' as const,
      created_at: at,
      updated_at: at,
    }));
    await admin.db.insertInto('tasks').values(rows).execute();
    return rows.map((r) => ({ task_id: r.task_id, version: 1 }));
  }

  /** the admin's own gateway, its client handed out only once `open()` is called */
  function gated(): { temporal: TemporalGateway; open(): void } {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    const temporal = Object.create(admin.temporal) as TemporalGateway;
    temporal.client = async (): Promise<Client> => {
      await opened;
      return admin.temporal.client();
    };
    return { temporal, open };
  }

  const authorizations = (ids: string[]) =>
    admin.db
      .selectFrom('order_authorizations')
      .select(['task_id', 'workflow_id', 'workflow_started_at'])
      .where('task_id', 'in', ids)
      .execute();

  it('answers a 40-task batch before its starts are taken, every task PENDING, the sweep leaving them to it; every workflow starts after', async () => {
    const items = await drafts(40);
    const ids = items.map((i) => i.task_id);
    const gate = gated();
    const started = await startPurchases(
      { db: admin.db, temporal: gate.temporal, log: testLogger('start') },
      actor,
      items,
    );
    expect(started.map((s) => s.status)).toEqual(ids.map(() => 'PENDING'));
    const rows = await admin.db.selectFrom('tasks').select('status').where('task_id', 'in', ids).execute();
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'PENDING'));
    expect((await authorizations(ids)).filter((a) => a.workflow_started_at !== null)).toEqual([]);
    // the sweep, on a Temporal that takes starts, leaves the batch being started alone
    expect(await sweepUnstartedPurchases({ db: admin.db, temporal: admin.temporal, log: testLogger('sweep') })).toBe(0);
    expect((await authorizations(ids)).filter((a) => a.workflow_started_at !== null)).toEqual([]);

    gate.open();
    let unstarted = ids.length;
    for (let i = 0; i < 240 && unstarted > 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      unstarted = (await authorizations(ids)).filter((a) => a.workflow_started_at === null).length;
    }
    expect(unstarted).toBe(0);
    const client = await admin.temporal.client();
    const one = (await authorizations(ids))[0]!;
    expect((await client.workflow.getHandle(one.workflow_id).describe()).type).toBe('purchase');
  });

  it('answers a batch of one round only once its workflows are started', async () => {
    const items = await drafts(2);
    const ids = items.map((i) => i.task_id);
    const gate = gated();
    let answered = false;
    const answer = startPurchases(
      { db: admin.db, temporal: gate.temporal, log: testLogger('start') },
      actor,
      items,
    ).then(() => (answered = true));
    // the commit is made and the starts wait at the gate: no answer yet
    for (let i = 0; i < 40 && (await authorizations(ids)).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(false);
    gate.open();
    await answer;
    expect((await authorizations(ids)).map((a) => a.workflow_started_at !== null)).toEqual([true, true]);
  });
});
