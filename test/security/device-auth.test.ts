import { sql } from 'kysely';
import { DeviceAuthenticator, revokeDeviceCredential } from '../../admin/auth/device-credentials';
import {
  deviceRequest,
  getJson,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type TestAdmin,
  type TestDevice,
} from '../harness';
import { headersOnly } from './evidence-client';

const registration = {
  serial: 'R58M123',
  model: 'SM-G9910',
  app_version: '7.1.0',
  capabilities: ['collect', 'purchase'],
};

describe('device authentication', () => {
  let admin: TestAdmin;
  let device: TestDevice;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    device = await issueTestDevice(admin, 'phone A');
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('lets a device register with its token, idempotently, and shows it to operators (online only once its worker polls)', async () => {
    const first = await deviceRequest(admin, device, 'POST', '/api/device/register', { body: registration });
    expect(first.status).toBe(200);
    const again = await deviceRequest(admin, device, 'POST', '/api/device/register', {
      body: { ...registration, app_version: '7.2.0' },
    });
    expect(again.status).toBe(200);
    expect(await admin.db.selectFrom('devices').selectAll().execute()).toHaveLength(1);

    const operator = await loginOperator(admin);
    const list = await operator.get('/api/devices');
    expect(list.status).toBe(200);
    // Registration is not presence: online comes from the pollers Temporal sees on the device's
    // queue (test/devices/devices.test.ts starts a real worker for that), and none polls here.
    expect(list.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          device_id: device.deviceId,
          online: false,
          online_source: 'temporal',
          app_version: '7.2.0',
          current_task_id: null,
        }),
      ]),
    );
  });

  it('answers an empty 401 for a missing, malformed, unknown or wrong token', async () => {
    const other = await issueTestDevice(admin, 'phone B');
    const cases: Record<string, string | undefined> = {
      missing: undefined,
      'not bearer': `Basic ${Buffer.from('a:b').toString('base64')}`,
      malformed: `Bearer ${device.deviceId}`,
      'upper-case hex': `Bearer ${device.deviceId}.${device.token.toUpperCase()}`,
      'unknown id': `Bearer 11111111-1111-4111-8111-111111111111.${device.token}`,
      'wrong token': `Bearer ${device.deviceId}.${'0'.repeat(64)}`,
      "another device's token": `Bearer ${device.deviceId}.${other.token}`,
    };
    for (const [label, authorization] of Object.entries(cases)) {
      const res = await getJson(`${admin.url}/api/device/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(registration),
      });
      expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 401, body: null });
    }
  });

  it('refuses a revoked token on the very next request', async () => {
    const phone = await issueTestDevice(admin, 'phone to revoke');
    expect((await deviceRequest(admin, phone, 'POST', '/api/device/register', { body: registration })).status).toBe(
      200,
    );
    await revokeDeviceCredential(admin.db, { kind: 'system', name: 'test' }, phone.deviceId);
    const res = await deviceRequest(admin, phone, 'POST', '/api/device/register', { body: registration });
    expect(res.status).toBe(401);
    expect(res.body).toBeNull();
    // and the revoked phone disappears from the operators' list
    const operator = await loginOperator(admin);
    const list = (await operator.get('/api/devices')).body as Array<{ device_id: string }>;
    expect(list.map((d) => d.device_id)).not.toContain(phone.deviceId);
  });

  it('decides before reading the body: a bad token gets its 401 while the body is still unsent', async () => {
    const res = await headersOnly(`${admin.url}/api/device/evidence`, {
      authorization: `Bearer ${device.deviceId}.${'1'.repeat(64)}`,
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(res).toEqual({ status: 401, body: '' });
  });

  it('fails closed with an empty 503 when the credential store cannot answer, also before the body', async () => {
    await sql`alter table device_credentials rename to device_credentials_away`.execute(admin.db);
    try {
      const res = await headersOnly(`${admin.url}/api/device/evidence`, {
        authorization: device.authorization,
        'content-type': 'multipart/form-data; boundary=x',
      });
      expect(res).toEqual({ status: 503, body: '' });
    } finally {
      await sql`alter table device_credentials_away rename to device_credentials`.execute(admin.db);
    }
    expect((await deviceRequest(admin, device, 'POST', '/api/device/register', { body: registration })).status).toBe(
      200,
    );
  });

  it('takes the same path for an unknown id and a wrong token: one constant-time compare of 32-byte hashes each', async () => {
    const calls: Array<[number, number]> = [];
    const auth = new DeviceAuthenticator(admin.db, (a, b) => {
      calls.push([a.length, b.length]);
      return a.equals(b);
    });
    const unknown = await auth.authenticate(`Bearer 22222222-2222-4222-8222-222222222222.${device.token}`);
    const wrong = await auth.authenticate(`Bearer ${device.deviceId}.${'ab'.repeat(32)}`);
    expect(unknown).toEqual({ ok: false });
    expect(wrong).toEqual({ ok: false });
    expect(calls).toEqual([
      [32, 32],
      [32, 32],
    ]);
    expect(await auth.authenticate(device.authorization)).toEqual({ ok: true, deviceId: device.deviceId });
  });

  it('answers unknown id and wrong token identically on the wire', async () => {
    const send = (authorization: string) =>
      fetch(`${admin.url}/api/device/register`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      });
    const a = await send(`Bearer 33333333-3333-4333-8333-333333333333.${device.token}`);
    const b = await send(`Bearer ${device.deviceId}.${'cd'.repeat(32)}`);
    const shape = async (r: Response) => {
      const h = Object.fromEntries([...r.headers].filter(([k]) => k !== 'date'));
      return { status: r.status, headers: h, body: await r.text() };
    };
    expect(await shape(a)).toEqual(await shape(b));
  });
});
