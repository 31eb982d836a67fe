import { BLACK_M, startPurchaseRig, type PurchaseRig } from './setup';

/**
 * Live purchases end to end (ARCHITECTURE §4.2): operator API → purchase workflow → the real
 * device worker → the simulated phone, and the read-only endings after the one tap.
 */
describe('purchase, live and dry run, through the operator API', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  beforeEach(() => rig.resetPhone());

  it('live: exactly one order, WAITING_PAYMENT with its number and evidence, then mark-paid → SUCCEEDED', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, capCent: 4000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);
    expect(t.status).toBe('WAITING_PAYMENT');
    const orders = rig.orders();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ goods_id: '937122477375', options: ['黑色', 'M'], quantity: 2, total_cent: 3276, status: 'unpaid' });
    expect(t.order_no).toBe(orders[0]?.order_no);
    expect(t.gates).toEqual({ gate1_unit_price_cent: 1288, gate2_panel_total_cent: 3276, gate3_submit_amount_cent: 3276, quantity_read: 2 });
    expect(t.submission).toMatchObject({ status: 'SUBMITTED', order_no: orders[0]?.order_no });
    expect(t.evidence.map((e) => e.kind)).toEqual(expect.arrayContaining(['SKU_PANEL_GATE_1', 'SUBMIT_PANEL_GATE_3', 'ORDER_RESULT']));
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.paymentTaps()).toHaveLength(0);
    expect(rig.submissionRows().filter((r) => r.task_id === id)).toHaveLength(1);

    const paid = await rig.op.post(`/api/tasks/${id}/mark-paid`);
    expect(paid.status).toBe(200);
    expect((await rig.waitFor(id, ['SUCCEEDED'])).status).toBe('SUCCEEDED');
  });

  it('dry run: DRY_RUN_PASSED with the three readings, no tap on 提交订单, no order', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, capCent: 2000, mode: 'dry_run' });
    const t = await rig.waitFor(id, ['DRY_RUN_PASSED', 'NEEDS_MANUAL']);
    expect(t.status).toBe('DRY_RUN_PASSED');
    expect(t.gates).toEqual({ gate1_unit_price_cent: 1288, gate2_panel_total_cent: 1288, gate3_submit_amount_cent: 1288, quantity_read: 1 });
    expect(rig.submitTaps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
    expect(t.submission).toBeNull();
  });
});
