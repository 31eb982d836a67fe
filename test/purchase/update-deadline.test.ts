import { BLACK_M, startPurchaseRig, type PurchaseRig } from './setup';

/**
 * The admin waits for an operator's update with a deadline: with no admin worker running the
 * workflow cannot answer, and the operator is told so (409 UPDATE_PENDING, in Chinese on the
 * page) instead of a request that hangs or a 5xx; nothing is recorded.
 */
describe('an operator update the workflow does not answer in time', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig({ withWorker: false, adminWorker: false });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('cancel of a purchase whose workflow has no worker → 409 UPDATE_PENDING, the task unchanged', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const before = await rig.task(id);
    const res = await rig.op.post(`/api/tasks/${id}/cancel`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { code: 'UPDATE_PENDING' } });
    const after = await rig.task(id);
    expect({ status: after.status, version: after.version }).toEqual({
      status: before.status,
      version: before.version,
    });
  }, 60_000);
});
