import type { HoldRecording } from '../../domain/hold-recording';
import { center, one, option, parseDump, type XNode } from '../../sim/phone/testkit';
import { deviceRequest, issueTestDevice, type OperatorClient, type TestAdmin } from '../harness';
import { BLACK_M } from '../purchase/setup';
import { realPng, sha256Hex } from '../security/png-fixtures';
import { startHostStack, type HostRig, type HostStack } from './host-rig';
import { until } from './operator-steps';

jest.setTimeout(600_000);
const TRIES = 2_400;
const SERIAL = 'rec-a';

/**
 * A held phone is recorded one frame a second (docs/api.md §12.3): its real device worker reads
 * each screen through the agent, classifies it and sends the frame, listed under its hold on
 * the phone's page. While the person's own taps have the phone on PDD's cashier nothing is kept,
 * and the recording goes on once the cashier is left. A frame for a phone nobody holds, or for a
 * hold that is not the one under way, is refused.
 */
describe('the recording of a held phone', () => {
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

  const recordings = async (id = deviceId) =>
    ((await op.get(`/api/devices/${id}/recordings`)).body as { holds: HoldRecording[] }).holds;
  const framesOf = async (since: string) => (await recordings()).find((h) => h.since === since)?.frames ?? [];
  const app = () => rig.sim.phone(SERIAL).app;
  /** The phone's screen once settled, as a person waits for it: every look is a fresh dump. */
  const screen = (what: string, check: (all: XNode[]) => boolean) =>
    until(
      async () => parseDump(app().dump()).all,
      (all) => app().screenName() !== 'loading' && check(all),
      what,
      TRIES,
    );
  const tap = async (n: XNode) => {
    const [x, y] = center(n);
    expect((await op.post(`/api/devices/${deviceId}/input`, { kind: 'tap', x, y })).status).toBe(200);
  };
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('records the held phone, never its cashier, and lists the hold with its frames', async () => {
    const held = await op.post(`/api/devices/${deviceId}/hold`);
    expect(held.status).toBe(200);
    const since = (held.body as { since: string }).since;

    // the person opens the goods: its page is recorded
    app().startUrl(`https://mobile.yangkeduo.com/goods.html?goods_id=${BLACK_M.goodsId}`);
    const goods = await screen('the goods page', (all) => all.some((n) => n.attrs.text?.startsWith('快要抢光 ¥')));
    await until(
      () => framesOf(since),
      (f) => f.length >= 2,
      'two frames of the goods page',
      TRIES,
    );

    // … and buys by hand, up to the cashier
    await tap(one(goods, (n) => n.attrs.text?.startsWith('快要抢光 ¥') === true, 'entry'));
    await tap(option(await screen('the spec panel', (all) => all.some((n) => n.attrs.text === '黑色')), '黑色'));
    const swipe = { kind: 'swipe', x1: 540, y1: 1900, x2: 540, y2: 1300, ms: 300 };
    expect((await op.post(`/api/devices/${deviceId}/input`, swipe)).status).toBe(200);
    await tap(option(await screen('the size row', (all) => all.some((n) => n.attrs.text === 'M')), 'M'));
    const final = await screen('提交订单', (all) => all.some((n) => n.attrs.text?.startsWith('提交订单 ¥')));
    await tap(one(final, (n) => n.attrs.text?.startsWith('提交订单 ¥') === true, '提交订单'));
    await screen('the cashier', () => app().screenName() === 'cashier');

    // a frame read before the cashier may still be on its way: counted once it has landed
    await wait(2_500);
    const onCashier = (await framesOf(since)).length;
    await wait(5_000);
    expect(app().screenName()).toBe('cashier');
    expect(await framesOf(since)).toHaveLength(onCashier);

    // closing the cashier (back → the orders list) brings the recording back
    expect((await op.post(`/api/devices/${deviceId}/input`, { kind: 'key', key: 'back' })).status).toBe(200);
    await until(
      () => framesOf(since),
      (f) => f.length > onCashier,
      'a frame after the cashier',
      TRIES,
    );

    expect((await op.del(`/api/devices/${deviceId}/hold`)).status).toBe(204);
    const [hold] = await recordings();
    expect(hold).toMatchObject({ held_by: expect.any(String), since, until: expect.any(String) });
    const frame = await op.get(`/api/evidence/${hold!.frames[0]!.evidence_id}`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toBe('image/png');
    // released, the worker stops: no frame lands after the release is seen by its next status check
    await wait(7_000);
    const settled = (await framesOf(since)).length;
    await wait(3_000);
    expect(await framesOf(since)).toHaveLength(settled);
  });

  it('a frame is refused unless the phone is held by that hold right now', async () => {
    const phone = await issueTestDevice(admin, 'recorded by hand');
    const png = realPng();
    const send = (holdSince: string) => {
      const form = new FormData();
      form.append('upload_key', `k-${holdSince}-${Math.random()}`);
      form.append('sha256', sha256Hex(png));
      form.append('hold_since', holdSince);
      form.append('captured_at', '2026-12-07T04:00:00Z');
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'f.png');
      return deviceRequest(admin, phone, 'POST', '/api/device/hold-frames', { body: form });
    };
    expect(await send('2026-12-07T04:00:00Z')).toMatchObject({
      status: 409,
      body: { error: { code: 'DEVICE_NOT_HELD' } },
    });
    const held = await op.post(`/api/devices/${phone.deviceId}/hold`);
    const since = (held.body as { since: string }).since;
    expect((await send(since)).status).toBe(201);
    // a hold that is not the one under way
    expect((await send('2020-01-01T00:00:00Z')).status).toBe(409);
    expect((await op.del(`/api/devices/${phone.deviceId}/hold`)).status).toBe(204);
    expect((await send(since)).status).toBe(409);
    const holds = await recordings(phone.deviceId);
    expect(holds).toHaveLength(1);
    expect(holds[0]!.frames).toHaveLength(1);
    // a purchase's evidence route never takes a hold frame
    const form = new FormData();
    form.append('upload_key', 'k-evidence');
    form.append('sha256', sha256Hex(png));
    form.append('task_id', 't');
    form.append('attempt_id', 'a');
    form.append('kind', 'HOLD_FRAME');
    form.append('captured_at', '2026-12-07T04:00:00Z');
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'f.png');
    expect((await deviceRequest(admin, phone, 'POST', '/api/device/evidence', { body: form })).status).toBe(400);
  });
});
