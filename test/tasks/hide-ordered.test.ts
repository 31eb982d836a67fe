import { issueTestDevice, loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { seedDraft, seedPurchase, seedSubmission, setStatus } from '../money/seed';

/**
 * A task that placed an order on PDD (提交订单 tapped, whatever came of it) stays in the books:
 * 隐藏 refuses it, all or nothing, with its own code (admin/purchase/hide.ts). A purchase that
 * stopped at the fence without the tap placed no order and may be hidden once finished.
 */
describe('hiding a task that placed an order', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  const at = '2026-08-07T08:00:00Z';

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  const removedAt = async (taskId: string) =>
    (await admin.db.selectFrom('tasks').select('removed_at').where('task_id', '=', taskId).executeTakeFirstOrThrow())
      .removed_at;

  it('refuses a paid purchase and a failed one that tapped 提交订单; hides one stopped before the tap', async () => {
    const phone = await issueTestDevice(admin, '一号机');
    const deviceId = phone.deviceId;
    // ordered, paid: SUCCEEDED
    await seedPurchase(admin.db, {
      taskId: 'T-PAID',
      sybId: null,
      capCent: 5000,
      deviceId,
      at,
      amountCent: 4000,
      waitingAt: '2026-08-07T08:05:00Z',
      paidAt: '2026-08-07T09:00:00Z',
    });
    // tapped, then failed without an order number read
    await seedDraft(admin.db, { taskId: 'T-TAPPED', sybId: null, capCent: 5000, at });
    await setStatus(admin.db, 'T-TAPPED', 'PENDING', at);
    await seedSubmission(admin.db, { taskId: 'T-TAPPED', amountCent: 4000, deviceId, at, tappedAt: at });
    await setStatus(admin.db, 'T-TAPPED', 'FAILED', at);
    // fenced but never tapped
    await seedDraft(admin.db, { taskId: 'T-FENCED', sybId: null, capCent: 5000, at });
    await setStatus(admin.db, 'T-FENCED', 'PENDING', at);
    await seedSubmission(admin.db, { taskId: 'T-FENCED', amountCent: 4000, deviceId, at });
    await setStatus(admin.db, 'T-FENCED', 'FAILED', at);

    const refused = await op.post('/api/tasks/hide', { task_ids: ['T-PAID', 'T-TAPPED', 'T-FENCED'] });
    expect(refused.status).toBe(409);
    const message = '已在拼多多下单的任务不能隐藏：账目须与实际订单一致';
    expect(refused.body).toMatchObject({
      error: {
        code: 'HIDE_REFUSED',
        details: {
          tasks: [
            { task_id: 'T-PAID', code: 'ORDER_PLACED', message },
            { task_id: 'T-TAPPED', code: 'ORDER_PLACED', message },
          ],
        },
      },
    });
    for (const id of ['T-PAID', 'T-TAPPED', 'T-FENCED']) expect(await removedAt(id)).toBeNull();

    expect((await op.post('/api/tasks/hide', { task_ids: ['T-FENCED'] })).status).toBe(200);
    expect(await removedAt('T-FENCED')).not.toBeNull();
    expect((await op.post('/api/tasks/hide', { task_ids: ['T-PAID'] })).status).toBe(409);
  });
});
