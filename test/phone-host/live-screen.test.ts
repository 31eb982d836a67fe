import WebSocket from 'ws';
import { AdbDevice } from '../../device-worker/adb/adb-device';
import { issueHostCredential } from '../../admin/auth/host-credentials';
import { addUser } from '../../admin/auth/users';
import type { DeviceView } from '../../domain/devices';
import type { PhoneSim } from '../../sim/phone';
import {
  deviceRequest,
  getJson,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type OperatorClient,
  type TestAdmin,
} from '../harness';
import { startHostRig, type HostRig } from './host-rig';

jest.setTimeout(300_000);

const SECOND_PASSWORD = 'second-operator-pass-1';

/** Opens the stream socket and collects its first text message and `frames` binary ones. */
function watch(
  url: string,
  headers: Record<string, string>,
  frames: number,
): Promise<{ meta: Record<string, unknown>; frames: Buffer[]; socket: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    let meta: Record<string, unknown> | null = null;
    const got: Buffer[] = [];
    socket.on('message', (data, isBinary) => {
      if (!isBinary) meta = JSON.parse(data.toString()) as Record<string, unknown>;
      else got.push(data as Buffer);
      if (meta && got.length >= frames) resolve({ meta, frames: got, socket });
    });
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.on('error', reject);
  });
}

/** The status a refused upgrade answers with. */
function refusedWith(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => reject(new Error('the socket opened')));
    socket.on('error', () => undefined);
  });
}

/**
 * A phone in the admin's hands (docs/api.md §12.3), end to end: the simulator's phone on a real
 * phone host, the host's outward channel to a real admin, and an operator's session. The frame,
 * the stream, holding, input (Chinese text included) and every refusal of a caller who may not.
 */
/** the admin's wait for a closed page's return, short here so the test can outlast it */
const GRACE_MS = 2_000;
const pastGrace = () => new Promise((r) => setTimeout(r, GRACE_MS + 1_000));

async function closePage(socket: WebSocket): Promise<void> {
  const closed = new Promise((resolve) => socket.on('close', resolve));
  socket.close();
  await closed;
}

describe('live screen, hold and input', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let second: OperatorClient;
  let sim: PhoneSim;
  let rig: HostRig;
  let deviceId: string;
  let wsBase: string;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false, pageClosedGraceMs: GRACE_MS });
    op = await loginOperator(admin);
    await addUser(admin.db, { kind: 'system', name: 'test' }, 'second', SECOND_PASSWORD);
    second = await loginOperator(admin, 'second', SECOND_PASSWORD);
    rig = await startHostRig(admin, op, ['screen-a']);
    sim = rig.sim;
    deviceId = rig.devices.get('screen-a') as string;
    wsBase = admin.url.replace(/^http/, 'ws');
  });
  afterAll(async () => {
    await rig?.close();
    await admin?.close();
  });

  const cookie = (c: OperatorClient) => ({ cookie: c.sessionCookie as string });

  it('one frame at the phone’s own pixel size, and a stream that says its path first', async () => {
    const res = await fetch(`${admin.url}/api/devices/${deviceId}/screen`, { headers: cookie(op) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/(png|jpeg)/);
    const png = Buffer.from(await res.arrayBuffer());
    // a PNG's IHDR holds width and height at bytes 16..24
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const size = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
    const own = await new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: 'screen-a' }).screenSize();
    expect(size).toEqual(own);

    const { meta, frames, socket } = await watch(`${wsBase}/api/devices/${deviceId}/screen/stream`, cookie(op), 2);
    // the page's grace runs out here, not beside the hold the next test takes
    await closePage(socket);
    await pastGrace();
    expect(meta).toMatchObject({ width: size.width, height: size.height });
    // the simulator's default phone (API 30) has a minicap build: JPEG frames, scaled down
    expect(meta).toMatchObject({ path: 'minicap', codec: 'jpeg' });
    for (const f of frames) expect(f.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('one holder at a time: the second operator watches, sees who holds it, and is refused the hold and the input', async () => {
    const held = await op.post(`/api/devices/${deviceId}/hold`);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ device_id: deviceId, held_by: 'admin' });
    const h = held.body as { since: string; idle_release_at: string };
    expect(Date.parse(h.idle_release_at) - Date.parse(h.since)).toBeGreaterThanOrEqual(5 * 60_000 - 1_000);

    const refused = await second.post(`/api/devices/${deviceId}/hold`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ held_by: 'admin', error: { code: 'DEVICE_HELD' } });
    const input = await second.post(`/api/devices/${deviceId}/input`, { kind: 'tap', x: 10, y: 10 });
    expect(input).toMatchObject({ status: 409, body: { error: { code: 'DEVICE_NOT_HELD' } } });
    const list = (await second.get('/api/devices')).body as Array<DeviceView & { held_by: string | null }>;
    expect(list.find((d) => d.device_id === deviceId)?.held_by).toBe('admin');
    // watching needs no hold
    const { socket } = await watch(`${wsBase}/api/devices/${deviceId}/screen/stream`, cookie(second), 1);
    socket.close();
  });

  it('the holder’s taps and Chinese text reach the phone; the audit keeps where, never what was typed', async () => {
    const before = ((await getJson(`http://127.0.0.1:${sim.controlPort}/devices/screen-a/taps`)).body as unknown[])
      .length;
    expect((await op.post(`/api/devices/${deviceId}/input`, { kind: 'tap', x: 100, y: 200 })).status).toBe(200);
    const taps = (await getJson(`http://127.0.0.1:${sim.controlPort}/devices/screen-a/taps`)).body as Array<{
      x: number;
      y: number;
    }>;
    expect(taps.length).toBe(before + 1);
    expect(taps.at(-1)).toMatchObject({ x: 100, y: 200 });
    expect((await op.post(`/api/devices/${deviceId}/input`, { kind: 'key', key: 'back' })).status).toBe(200);
    expect((await op.post(`/api/devices/${deviceId}/input`, { kind: 'text', text: '你好 world' })).status).toBe(200);
    const rows = await admin.db
      .selectFrom('audit_log')
      .select(['action', 'details_json'])
      .where('action', '=', 'device.input')
      .execute();
    const details = rows.map((r) => r.details_json).join('\n');
    expect(details).toContain('"x":100');
    expect(details).toContain('"length":8');
    expect(details).not.toContain('你好');
  });

  it('bad input is refused with the field named, before the phone sees it', async () => {
    const before = ((await getJson(`http://127.0.0.1:${sim.controlPort}/devices/screen-a/taps`)).body as unknown[])
      .length;
    const cases: Array<[unknown, string]> = [
      [{ kind: 'tap', x: 100_000, y: 10 }, 'x'],
      [{ kind: 'tap', x: -1, y: 10 }, 'x'],
      [{ kind: 'key', key: 'power' }, 'key'],
      [{ kind: 'text', text: 'a'.repeat(501) }, 'text'],
      [{ kind: 'text', text: 'line\nbreak' }, 'text'],
      [{ kind: 'swipe', x1: 1, y1: 1, x2: 2, y2: 2, ms: 1 }, 'ms'],
      [{ kind: 'wave' }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const res = await op.post(`/api/devices/${deviceId}/input`, body);
      expect({ body, status: res.status, code: (res.body as { error: { code: string } }).error.code }).toEqual({
        body,
        status: 400,
        code: 'INPUT_INVALID',
      });
      expect((res.body as { error: { details: { field: string } } }).error.details.field).toBe(field);
    }
    const after = ((await getJson(`http://127.0.0.1:${sim.controlPort}/devices/screen-a/taps`)).body as unknown[])
      .length;
    expect(after).toBe(before);
  });

  it('a flood of input is cut off with INPUT_RATE_LIMITED', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => op.post(`/api/devices/${deviceId}/input`, { kind: 'key', key: 'back' })),
    );
    expect(answers.some((a) => (a.body as { error?: { code: string } }).error?.code === 'INPUT_RATE_LIMITED')).toBe(
      true,
    );
  });

  it('no session, a device token or a host token gets no screen, no stream and no input', async () => {
    const device = await issueTestDevice(admin);
    const hostToken = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, '别的主机');
    const bearers = [device.authorization, `Bearer ${hostToken.hostId}.${hostToken.token}`];
    expect((await getJson(`${admin.url}/api/devices/${deviceId}/screen`)).status).toBe(401);
    for (const authorization of bearers) {
      const screen = await deviceRequest(admin, { authorization }, 'GET', `/api/devices/${deviceId}/screen`);
      expect(screen.status).toBe(401);
      const input = await deviceRequest(admin, { authorization }, 'POST', `/api/devices/${deviceId}/input`, {
        body: { kind: 'tap', x: 1, y: 1 },
      });
      expect(input.status).toBe(401);
      expect(await refusedWith(`${wsBase}/api/devices/${deviceId}/screen/stream`, { authorization })).toBe(401);
    }
    expect(await refusedWith(`${wsBase}/api/devices/${deviceId}/screen/stream`, {})).toBe(401);
    // another site's page with our cookie
    expect(
      await refusedWith(`${wsBase}/api/devices/${deviceId}/screen/stream`, {
        ...cookie(op),
        origin: 'https://evil.example',
      }),
    ).toBe(403);
    // the host channel is for host tokens only
    expect(await refusedWith(`${wsBase}/api/host/channel`, cookie(op))).toBe(401);
    expect(await refusedWith(`${wsBase}/api/host/channel`, { authorization: device.authorization })).toBe(401);
  });

  it('logging out releases the hold and closes the stream; the audit has the hold and its end', async () => {
    const { socket } = await watch(`${wsBase}/api/devices/${deviceId}/screen/stream`, cookie(op), 1);
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    expect((await op.del('/api/session')).status).toBe(204);
    expect(await closed).toBe(4401);
    const list = (await second.get('/api/devices')).body as Array<DeviceView & { held_by: string | null }>;
    expect(list.find((d) => d.device_id === deviceId)?.held_by).toBeNull();
    expect((await second.post(`/api/devices/${deviceId}/hold`)).status).toBe(200);
    expect((await second.del(`/api/devices/${deviceId}/hold`)).status).toBe(204);
    const rows = await admin.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'details_json'])
      .where('action', 'in', ['device.hold', 'device.release'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, r.actor, JSON.parse(r.details_json ?? '{}').why])).toEqual([
      ['device.hold', 'admin', undefined],
      ['device.release', 'admin', 'logout'],
      ['device.hold', 'second', undefined],
      ['device.release', 'second', 'released'],
    ]);
  });

  it('a closed page ends its own hold after the grace, not one taken after it closed, not when it is back', async () => {
    const heldBy = async () =>
      ((await second.get('/api/devices')).body as Array<DeviceView & { held_by: string | null }>).find(
        (d) => d.device_id === deviceId,
      )?.held_by;
    // a page that closed with no hold standing: the hold taken after it is not its to end
    await closePage((await watch(`${wsBase}/api/devices/${deviceId}/screen/stream`, cookie(second), 1)).socket);
    await new Promise((r) => setTimeout(r, GRACE_MS / 2));
    expect((await second.post(`/api/devices/${deviceId}/hold`)).status).toBe(200);
    await pastGrace();
    expect(await heldBy()).toBe('second');
    // a reload: the page is back within the grace, the hold stands
    await closePage((await watch(`${wsBase}/api/devices/${deviceId}/screen/stream`, cookie(second), 1)).socket);
    const back = (await watch(`${wsBase}/api/devices/${deviceId}/screen/stream`, cookie(second), 1)).socket;
    await pastGrace();
    expect(await heldBy()).toBe('second');
    // the holder's last page closes: the hold ends once the grace has passed
    await closePage(back);
    await pastGrace();
    expect(await heldBy()).toBeNull();
    const last = await admin.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'details_json'])
      .where('action', 'in', ['device.hold', 'device.release'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect([last.action, last.actor, JSON.parse(last.details_json ?? '{}').why]).toEqual([
      'device.release',
      'second',
      'page_closed',
    ]);
  });
});
