import type { TapRecord } from '../../sim/phone/phone';
import { getJson, type OperatorClient, type TestAdmin } from '../harness';
import { startHostStack, type HostRig, type HostStack } from './host-rig';
import { operatorSteps, until } from './operator-steps';

jest.setTimeout(600_000);
const TRIES = 2_400;

/**
 * A person takes a phone from the admin and automation steps aside (docs/api.md §12.3): a
 * purchase under way when the phone is taken stops before its next act with HELD_BY_OPERATOR and
 * taps nothing after; a phone stopped on a slider keeps its stop through 处理完毕，继续 until the
 * slider is solved from the admin, and then takes the next task.
 */
describe('taking a phone over', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let rig: HostRig;
  let deviceId: string;
  const { task, waitFor, dryRun } = operatorSteps(
    () => op,
    () => admin.db,
    TRIES,
  );
  const taps = async () =>
    (await getJson(`http://127.0.0.1:${rig.sim.controlPort}/devices/take-a/taps`)).body as TapRecord[];

  let stack: HostStack;
  beforeAll(async () => {
    stack = await startHostStack('take-a');
    ({ admin, op, rig, deviceId } = stack);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('a hold taken mid-purchase stops it before its next act, with no tap after the hold', async () => {
    const phone = rig.sim.phone('take-a');
    // slow enough that the hold lands between two of the purchase's taps
    phone.setFaults({ latency: 'realistic' });
    const before = (await taps()).length;
    const t = await dryRun();
    await until(taps, (all) => all.length > before, 'the purchase’s first tap', TRIES);
    expect((await op.post(`/api/devices/${deviceId}/hold`)).status).toBe(200);
    const heldAt = Date.now();
    const stopped = await waitFor(t, ['NEEDS_MANUAL', 'FAILED', 'DRY_RUN_PASSED']);
    expect(stopped).toMatchObject({ status: 'NEEDS_MANUAL', reason_code: 'HELD_BY_OPERATOR', device_id: deviceId });
    expect((await taps()).filter((r) => Date.parse(r.at) > heldAt)).toEqual([]);
    // while held the phone claims nothing
    const next = await dryRun();
    await new Promise((r) => setTimeout(r, 8_000));
    expect((await task(next)).status).toBe('PENDING');
    phone.clearFaults();
    expect((await op.del(`/api/devices/${deviceId}/hold`)).status).toBe(204);
    expect(await waitFor(next, ['NEEDS_MANUAL', 'FAILED', 'DRY_RUN_PASSED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: deviceId,
    });
    // the stopped one, retried from its stop in one click: a new authorization, bought this time
    const retried = await op.post(`/api/tasks/${t}/retry`);
    expect(retried).toMatchObject({ status: 200, body: { started: { task_id: t, status: 'PENDING' } } });
    expect(await waitFor(t, ['NEEDS_MANUAL', 'FAILED', 'DRY_RUN_PASSED'])).toMatchObject({ status: 'DRY_RUN_PASSED' });
    const again = await op.post(`/api/tasks/${t}/retry`);
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'ACTION_NOT_ALLOWED' } } });
  });

  it('处理完毕，继续 keeps the stop while the phone still shows the slider; solved from the admin, the phone buys again', async () => {
    const phone = rig.sim.phone('take-a');
    phone.setFaults({ captcha_on: 'open' });
    const t = await dryRun();
    expect(await waitFor(t, ['NEEDS_MANUAL', 'FAILED', 'DRY_RUN_PASSED'])).toMatchObject({
      status: 'NEEDS_MANUAL',
      reason_code: 'CAPTCHA_REQUIRED',
    });
    phone.clearFaults();
    const queue = (await op.get('/api/attention')).body as { items: Array<{ kind: string; id: string }> };
    expect(queue.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'device', id: deviceId }),
        expect.objectContaining({ kind: 'task', id: t }),
      ]),
    );
    // pressed before anyone solved it: the fresh read sees the slider and the stop stays
    const early = await op.post(`/api/devices/${deviceId}/resume`);
    expect(early).toMatchObject({ status: 409, body: { error: { code: 'PHONE_STILL_BLOCKED' } } });
    const challenge = (await getJson(`http://127.0.0.1:${rig.sim.controlPort}/devices/take-a/challenge`)).body as {
      page: string;
      drag_to: [number, number];
    };
    expect(challenge.page).toBe('captcha');

    expect((await op.post(`/api/devices/${deviceId}/hold`)).status).toBe(200);
    const drag = { kind: 'swipe', x1: 200, y1: 1120, x2: challenge.drag_to[0], y2: challenge.drag_to[1], ms: 1500 };
    expect((await op.post(`/api/devices/${deviceId}/input`, drag)).status).toBe(200);
    expect((await getJson(`http://127.0.0.1:${rig.sim.controlPort}/devices/take-a/challenge`)).body).toBeNull();
    expect((await op.del(`/api/devices/${deviceId}/hold`)).status).toBe(204);

    const resumed = await op.post(`/api/devices/${deviceId}/resume`);
    expect(resumed).toMatchObject({
      status: 200,
      body: { attention: null, cleared: { reason_code: 'CAPTCHA_REQUIRED' } },
    });
    const after = await dryRun();
    expect(await waitFor(after, ['NEEDS_MANUAL', 'FAILED', 'DRY_RUN_PASSED'])).toMatchObject({
      status: 'DRY_RUN_PASSED',
      device_id: deviceId,
    });
    const checked = await admin.db
      .selectFrom('audit_log')
      .select('details_json')
      .where('action', '=', 'device.resume_checked')
      .orderBy('id')
      .execute();
    expect(checked.map((r) => JSON.parse(r.details_json ?? '{}').ok)).toEqual([false, true]);
  });
});
