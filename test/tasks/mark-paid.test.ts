import type { TaskListItem, TaskView } from '../../domain/purchase/views';
import type { Page } from '../../domain/page';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';

/**
 * Paying, phone by phone (docs/operator-guide.md §8): the pay list's fields, 标记已付款 for several
 * tasks at once, and the read-only look at the phone's 待付款 list that checks each mark — a
 * mismatch shown and put on 需处理, a paid order confirmed.
 */
describe('the pay list and bulk 标记已付款, checked on the phone', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  const waitForCheck = async (id: string, statuses: string[]): Promise<TaskView> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const t = await rig.task(id);
      if (t.payment_check && statuses.includes(t.payment_check.status)) return t;
      if (Date.now() > deadline) throw new Error(`payment check of ${id}: ${JSON.stringify(t.payment_check)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('lists what to pay with its phone and account, marks several at once, and checks each on the phone', async () => {
    // two live orders on the one phone (different quantities: each is its own order on the list)
    const unpaid = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const paid = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
    for (const id of [unpaid, paid])
      expect((await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED'])).status).toBe(
        'WAITING_PAYMENT',
      );
    const draft = await rig.draft({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });

    // the PDD account is the operator's to say, on 设备, audited
    const account = await rig.op.request('PATCH', `/api/devices/${rig.device.deviceId}`, { pdd_account: '买家小王' });
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ device_id: rig.device.deviceId, pdd_account: '买家小王' });
    const devices = (await rig.op.get('/api/devices')).body as Array<{ device_id: string; pdd_account: string }>;
    expect(devices.find((d) => d.device_id === rig.device.deviceId)?.pdd_account).toBe('买家小王');
    expect((await rig.op.request('PATCH', `/api/devices/${rig.device.deviceId}`, { pdd_account: '' })).status).toBe(
      400,
    );

    const list = (await rig.op.get('/api/tasks?status=WAITING_PAYMENT')).body as Page<TaskListItem>;
    const byId = new Map(list.items.map((t) => [t.task_id, t]));
    const orderNo = (id: string) => byId.get(id)?.pdd_order_no;
    expect(byId.get(unpaid)).toMatchObject({
      confirmed_total_cent: 1288,
      device_name: 'purchase phone',
      device_id: rig.device.deviceId,
      pdd_account: '买家小王',
      payment_check: null,
    });
    expect(byId.get(paid)).toMatchObject({ confirmed_total_cent: 3276, pdd_account: '买家小王' });
    expect(orderNo(unpaid)).toBe(rig.orders().find((o) => o.quantity === 1)?.order_no);
    expect(orderNo(paid)).toBe(rig.orders().find((o) => o.quantity === 2)?.order_no);
    // the task page carries the same
    expect(await rig.task(paid)).toMatchObject({ confirmed_total_cent: 3276, pdd_account: '买家小王' });

    // a person paid one of the two on the phone (the simulator's cashier: 支付中, off the 待付款 tab)
    const order = rig.orders().find((o) => o.order_no === orderNo(paid));
    if (order) order.status = 'payment_started';
    const tapsBefore = rig.taps().length;

    const versions = new Map(list.items.map((t) => [t.task_id, t.version]));
    const marked = await rig.op.post('/api/tasks/mark-paid', {
      tasks: [
        { task_id: unpaid, version: versions.get(unpaid) },
        { task_id: paid, version: versions.get(paid) },
        { task_id: draft.task_id, version: draft.version + 1 },
      ],
    });
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({
      tasks: [
        { task_id: unpaid, result: 'applied' },
        { task_id: paid, result: 'applied' },
        { task_id: draft.task_id, result: 'refused', code: 'VERSION_CONFLICT', message: expect.any(String) },
      ],
    });
    const wrongState = await rig.op.post('/api/tasks/mark-paid', {
      tasks: [{ task_id: draft.task_id, version: draft.version }],
    });
    expect(wrongState.body).toEqual({
      tasks: [{ task_id: draft.task_id, result: 'refused', code: 'ACTION_NOT_ALLOWED', message: expect.any(String) }],
    });
    expect((await rig.op.post('/api/tasks/mark-paid', { tasks: [] })).status).toBe(400);

    // the phone, once free, is looked at: read only
    const mismatch = await waitForCheck(unpaid, ['mismatch', 'confirmed', 'unavailable']);
    expect(mismatch.status).toBe('SUCCEEDED');
    expect(mismatch.payment_check).toEqual({
      status: 'mismatch',
      checked_at: expect.stringMatching(/Z$/),
      message: expect.stringContaining(orderNo(unpaid)!),
    });
    const confirmed = await waitForCheck(paid, ['mismatch', 'confirmed', 'unavailable']);
    expect(confirmed.payment_check?.status).toBe('confirmed');
    expect(rig.taps().length).toBe(tapsBefore);
    expect(rig.paymentTaps()).toHaveLength(0);

    // shown on the pay list's second part and on 需处理, never silently accepted
    const open = (await rig.op.get('/api/tasks?status=SUCCEEDED&payment_check=open')).body as Page<TaskListItem>;
    expect(open.items.map((t) => [t.task_id, t.payment_check?.status])).toEqual([[unpaid, 'mismatch']]);
    const attention = (await rig.op.get('/api/attention')).body as {
      items: Array<{ id: string; reason_code: string }>;
    };
    expect(attention.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: unpaid, reason_code: 'PAYMENT_MISMATCH' })]),
    );

    // paid now on the phone, looked at again: confirmed, off 需处理
    const still = rig.orders().find((o) => o.order_no === orderNo(unpaid));
    if (still) still.status = 'payment_started';
    const again = await rig.op.post(`/api/tasks/${unpaid}/payment-check`);
    expect(again.status).toBe(200);
    expect((await waitForCheck(unpaid, ['confirmed'])).payment_check?.status).toBe('confirmed');
    const after = (await rig.op.get('/api/attention')).body as { items: Array<{ id: string }> };
    expect(after.items.map((i) => i.id)).not.toContain(unpaid);
    expect(((await rig.op.get('/api/tasks?status=SUCCEEDED&payment_check=open')).body as Page<unknown>).items).toEqual(
      [],
    );
    expect(rig.taps().length).toBe(tapsBefore);
  });
});
