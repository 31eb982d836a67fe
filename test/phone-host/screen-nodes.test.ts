import type { ScreenNodesView } from '../../domain/screen-nodes';
import { deviceRequest, issueTestDevice, type OperatorClient, type TestAdmin } from '../harness';
import { BLACK_M, putSimOverlays } from '../purchase/setup';
import { startHostStack, type HostRig, type HostStack } from './host-rig';
import { until } from './operator-steps';

jest.setTimeout(600_000);
const TRIES = 2_400;
const SERIAL = 'nodes-a';

/** A popup no profile knows, shown as the goods page opens. */
const AUTUMN_PROMO = {
  id: 'autumn-promo',
  when: 'open',
  bounds: [90, 700, 990, 1700],
  nodes: [
    { text: '秋季大促 全场满减', class: 'android.widget.TextView', clickable: false, bounds: [140, 760, 940, 860] },
    { text: '暂不需要', class: 'android.widget.TextView', clickable: true, bounds: [140, 1560, 940, 1660] },
  ],
};

/**
 * 教弹窗 from what the phone read (docs/api.md §12.3): while a person holds a phone its worker
 * sends the nodes it reads (never of a payment screen), the admin keeps the latest in memory for
 * that hold only and offers them to the dialog; once the hold ends nothing is answered.
 */
describe('the nodes a held phone read', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let rig: HostRig;
  let deviceId: string;

  let stack: HostStack;
  beforeAll(async () => {
    stack = await startHostStack(SERIAL);
    ({ admin, op, rig, deviceId } = stack);
  });
  afterAll(async () => {
    await stack?.close();
  });

  const nodes = async (id = deviceId) => (await op.get(`/api/devices/${id}/screen/nodes`)).body as ScreenNodesView;

  it('offers the popup on the held phone, and nothing once it is released', async () => {
    expect(await nodes()).toEqual({ read_at: null, nodes: [] });
    await putSimOverlays({ sim: rig.sim, serial: SERIAL }, [AUTUMN_PROMO]);
    const held = await op.post(`/api/devices/${deviceId}/hold`);
    expect(held.status).toBe(200);

    rig.sim.phone(SERIAL).app.startUrl(`https://mobile.yangkeduo.com/goods.html?goods_id=${BLACK_M.goodsId}`);
    const read = await until(
      () => nodes(),
      (v) => v.nodes.some((n) => n.text === '秋季大促 全场满减'),
      'the popup among the nodes read',
      TRIES,
    );
    expect(read.read_at).toEqual(expect.any(String));
    expect(read.nodes).toContainEqual({
      text: '暂不需要',
      content_desc: '',
      resource_id: expect.any(String),
      class: 'android.widget.TextView',
      bounds: [140, 1560, 940, 1660],
      clickable: true,
    });

    expect((await op.del(`/api/devices/${deviceId}/hold`)).status).toBe(204);
    expect(await nodes()).toEqual({ read_at: null, nodes: [] });
  });

  it('a read is refused unless the phone is held by that hold right now', async () => {
    const phone = await issueTestDevice(admin, 'read by hand');
    const put = (holdSince: string) =>
      deviceRequest(admin, phone, 'PUT', '/api/device/screen-nodes', {
        body: {
          hold_since: holdSince,
          nodes: [
            {
              text: '关闭',
              content_desc: '',
              resource_id: '',
              class: 'android.widget.Button',
              bounds: [0, 0, 9, 9],
              clickable: true,
            },
          ],
        },
      });
    expect(await put('2026-12-07T04:00:00Z')).toMatchObject({
      status: 409,
      body: { error: { code: 'DEVICE_NOT_HELD' } },
    });
    const since = ((await op.post(`/api/devices/${phone.deviceId}/hold`)).body as { since: string }).since;
    expect((await put('2020-01-01T00:00:00Z')).status).toBe(409);
    expect((await put(since)).status).toBe(204);
    expect((await nodes(phone.deviceId)).nodes.map((n) => n.text)).toEqual(['关闭']);
    expect((await op.del(`/api/devices/${phone.deviceId}/hold`)).status).toBe(204);
    expect((await put(since)).status).toBe(409);
    expect(await nodes(phone.deviceId)).toEqual({ read_at: null, nodes: [] });
    const tooLong = { hold_since: since, nodes: [{ text: 'x'.repeat(201) }] };
    expect((await deviceRequest(admin, phone, 'PUT', '/api/device/screen-nodes', { body: tooLong })).status).toBe(400);
  });
});
