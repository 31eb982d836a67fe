import { defaultPayloadConverter } from '@temporalio/common';
import { purchaseWorkflowInput } from '../../admin/purchase/workflow-input';
import { nowUtc } from '../../domain/time';
import { OPERATOR_WAIT_DAYS_DEFAULT } from '../../domain/purchase/workflow-types';
import { payloadCodec } from '../../temporal/codec';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from './setup';

/**
 * The one-time authorization (授权一次性; docs/engineering.md steps 1–2): it expires
 * when no phone is free, and a start racing another start of the same tasks authorises once.
 * No device worker runs here, so no phone is ever free.
 */
describe('purchase authorization', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig({ withWorker: false });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('two concurrent starts of the same task version: one 200, one 409, one authorization row', async () => {
    const d = await rig.draft({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const body = { tasks: [{ task_id: d.task_id, version: d.version }] };
    const [a, b] = await Promise.all([rig.op.post('/api/tasks/start', body), rig.op.post('/api/tasks/start', body)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const auths = await rig.admin.db
      .selectFrom('order_authorizations')
      .selectAll()
      .where('task_id', '=', d.task_id)
      .execute();
    expect(auths).toHaveLength(1);
    expect((await rig.task(d.task_id)).status).toBe('PENDING');
    // a replay of the same start later is refused too: still one authorization
    expect((await rig.op.post('/api/tasks/start', body)).status).toBe(409);
    expect(
      await rig.admin.db.selectFrom('order_authorizations').selectAll().where('task_id', '=', d.task_id).execute(),
    ).toHaveLength(1);
  });

  it('cancel before the fence (still waiting for a phone) is accepted → CANCELED, the authorization abandoned', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    expect((await rig.task(id)).status).toBe('PENDING');
    const res = await rig.op.post(`/api/tasks/${id}/cancel`);
    expect(res.status).toBe(200);
    const t = await rig.waitFor(id, ['CANCELED']);
    expect(t.reason_code).toBe('CANCELED_BY_OPERATOR');
    expect(t.authorization?.status).toBe('ABANDONED');
    expect((await rig.op.post(`/api/tasks/${id}/cancel`)).status).toBe(409);
  });

  it('the workflow is started with the input made from its authorization row, as the sweep makes it: the cap as maxTotalPriceCent', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 3500 });
    const auth = await rig.admin.db
      .selectFrom('order_authorizations')
      .selectAll()
      .where('task_id', '=', id)
      .executeTakeFirstOrThrow();
    const handle = (await rig.admin.temporal.client()).workflow.getHandle(auth.workflow_id);
    const started = (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
    const [plain] = await payloadCodec().decode([started!.input!.payloads![0]!]);
    const { operatorWaitDays, ...input } = defaultPayloadConverter.fromPayload<Record<string, unknown>>(plain!);
    expect(input).toEqual(purchaseWorkflowInput(auth));
    expect(input).toMatchObject({ taskId: id, quantity: 2, maxTotalPriceCent: 3500, mode: 'live' });
    expect(operatorWaitDays).toBe(OPERATOR_WAIT_DAYS_DEFAULT);
    expect((await rig.op.post(`/api/tasks/${id}/cancel`)).status).toBe(200);
  });

  it('no free phone until the authorization expires (TTL 1 minute, the production minimum) → back to DRAFT, AUTHORIZATION_EXPIRED', async () => {
    // The shortest TTL production accepts; set through the same app_settings row an operator edits.
    await rig.admin.db
      .insertInto('app_settings')
      .values({ setting_key: 'purchase.authorization_ttl_minutes', value_json: '1', updated_at: nowUtc() })
      .onConflict((oc) => oc.column('setting_key').doUpdateSet({ value_json: '1' }))
      .execute();
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const pending = await rig.task(id);
    expect(pending.status).toBe('PENDING');
    const t = await rig.waitFor(id, ['DRAFT', 'NEEDS_MANUAL', 'CLAIMED'], 100_000);
    expect(t.status).toBe('DRAFT');
    expect(t.reason_code).toBe('AUTHORIZATION_EXPIRED');
    expect(t.authorization).toMatchObject({ id: pending.authorization?.id, status: 'EXPIRED' });
    expect(Date.parse(t.updated_at)).toBeGreaterThanOrEqual(Date.parse(pending.authorization!.expires_at) - 1000);
  }, 150_000);
});
