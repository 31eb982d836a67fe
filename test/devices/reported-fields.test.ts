import { issueHostCredential } from '../../admin/auth/host-credentials';
import type { DeviceView } from '../../domain/devices';
import { AGENT_NOT_REPORTED, AGENT_REASON_MAX, agentReasonText } from '../../domain/phone-agent';
import {
  deviceRequest,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type HttpResult,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';

jest.setTimeout(120_000);

const REGISTRATION = {
  serial: 'R58M12ABCDE',
  model: 'Redmi Note 12 Pro+ 红米',
  app_version: '7.28.0',
  capabilities: ['collect', 'purchase', 'profile:7.28.0'],
};
const HOST_PHONE = { serial: 'emulator-5554', model: 'Pixel 7', android_version: '14', app_version: '7.28.0' };
const HEALTH = { battery_level: 80, charging: true, screen: 'on', free_storage_mb: 4096 };

/** What each field is refused for: controls, direction controls, lone surrogates, odd characters, length. */
const ODD_SERIALS = ['R58M\u0000', 'R58M 12', 'R58M\u202e21', '../../etc', '\ud800R58M', 'R'.repeat(129), 'a;rm -rf'];
const ODD_VERSIONS = ['7.28\u0007', '7.28.0\u202e', '7.28\ud800', '<script>', 'v'.repeat(65), '７.２８'];
const ODD_MODELS = ['Pixel\u0000', 'Pixel\u202e7', 'Pixel\udc00', 'Pixel\u0085', 'M'.repeat(129)];

const codeOf = (r: HttpResult) => ({ status: r.status, code: (r.body as { error?: { code: string } }).error?.code });
const refusedAsInvalid = { status: 400, code: 'VALIDATION_FAILED' };

/**
 * Serials, models, versions and capabilities from device workers and phone hosts are checked
 * before anything is stored (admin/devices/reported-fields.ts, docs/security.md "Phone hosts and
 * devices"): printable (domain/text.ts), bounded, serials and versions from a small set.
 */
describe('what devices and hosts report is checked before it is stored', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let device: TestDevice;
  let host: { authorization: string };

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    device = await issueTestDevice(admin, '校验手机');
    const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, '校验主机');
    host = { authorization: `Bearer ${issued.hostId}.${issued.token}` };
  });
  afterAll(async () => {
    await admin?.close();
  });

  const register = (body: unknown) => deviceRequest(admin, device, 'POST', '/api/device/register', { body });
  const registered = () =>
    admin.db.selectFrom('devices').selectAll().where('device_id', '=', device.deviceId).executeTakeFirst();
  const hostPhones = async () => (await admin.db.selectFrom('host_phones').select('serial').execute()).length;

  it('device registration: a sane one is stored, odd serials, models, versions are 400 and nothing changes', async () => {
    expect((await register(REGISTRATION)).status).toBe(200);
    const good = await registered();
    expect(good).toMatchObject({ serial: 'R58M12ABCDE', model: 'Redmi Note 12 Pro+ 红米', app_version: '7.28.0' });
    // what today's workers send when PDD is missing, and network / wireless-debugging serials
    for (const ok of [
      { app_version: 'not installed' },
      { serial: '192.168.1.20:5555' },
      { serial: 'adb-R58M-x._adb-tls-connect._tcp' },
    ])
      expect((await register({ ...REGISTRATION, ...ok })).status).toBe(200);
    expect((await register(REGISTRATION)).status).toBe(200);
    const before = await registered();

    const cases = [
      ...ODD_SERIALS.map((serial) => ({ serial })),
      ...ODD_MODELS.map((model) => ({ model })),
      ...ODD_VERSIONS.map((app_version) => ({ app_version })),
    ];
    for (const odd of cases)
      expect({ odd, ...codeOf(await register({ ...REGISTRATION, ...odd })) }).toEqual({ odd, ...refusedAsInvalid });
    expect(await registered()).toEqual(before);
  });

  it('capabilities: 900 KB, deep nesting, odd names or too many are 400; a flat object of a newer worker is taken', async () => {
    const before = await registered();
    const huge = { blob: 'x'.repeat(900 * 1024) };
    let deep: unknown = 'x';
    for (let i = 0; i < 50; i++) deep = { d: deep };
    for (const capabilities of [
      huge,
      ['x'.repeat(900 * 1024)],
      Array.from({ length: 5000 }, (_, i) => `cap-${i}`),
      { nested: deep },
      ['collect\u0000'],
      ['profile:7.28.0\u202e'],
      { 'evil\u0007': true },
      Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, true])),
      // 64 entries, each within its bound, together over 8 KB of JSON
      Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v'.repeat(200)])),
      'collect',
    ]) {
      const res = await register({ ...REGISTRATION, capabilities });
      expect(codeOf(res)).toEqual(refusedAsInvalid);
    }
    expect(await registered()).toEqual(before);

    const flat = { collect: true, profiles: ['7.28.0'], screen: '1080x2400', slots: 2, note: null };
    expect((await register({ ...REGISTRATION, capabilities: flat })).status).toBe(200);
    expect(JSON.parse((await registered())!.capabilities_json)).toEqual(flat);
    expect((await register(REGISTRATION)).status).toBe(200);
  });

  it("device status: the worker's health reading with an odd app version or an absurd free storage is 400", async () => {
    for (const health of [
      { ...HEALTH, app_version: '7.28\u0000' },
      { ...HEALTH, app_version: 'x'.repeat(65) },
      { ...HEALTH, free_storage_mb: Number.MAX_SAFE_INTEGER },
    ]) {
      const res = await deviceRequest(admin, device, 'POST', '/api/device/status', {
        body: { adb_connected: true, health },
      });
      expect(codeOf(res)).toEqual(refusedAsInvalid);
    }
    expect(await admin.db.selectFrom('device_health').selectAll().execute()).toEqual([]);
  });

  it('device status: the agent state is kept and shown on 设备; an odd one is 400 and writes nothing; a report without it keeps it', async () => {
    const status = (body: unknown) => deviceRequest(admin, device, 'POST', '/api/device/status', { body });
    const agentOf = async () =>
      ((await op.get('/api/devices')).body as DeviceView[]).find((d) => d.device_id === device.deviceId)?.agent;
    expect(await agentOf()).toEqual({ state: 'unavailable', reason: 'not reported' });
    expect((await status({ adb_connected: true })).status).toBe(200);
    expect(await agentOf()).toEqual(AGENT_NOT_REPORTED);
    expect((await status({ adb_connected: true, agent: { state: 'starting', reason: null } })).status).toBe(200);
    expect(await agentOf()).toEqual({ state: 'starting', reason: null });
    const unavailable = { state: 'unavailable', reason: 'the agent did not answer on port 6790 读屏' };
    expect((await status({ adb_connected: true, agent: unavailable })).status).toBe(200);
    expect(await agentOf()).toEqual(unavailable);

    const before = await registered();
    for (const agent of [
      { state: 'crashed', reason: null },
      { state: 'RUNNING', reason: null },
      { state: 'running' },
      { state: 'unavailable', reason: 'x'.repeat(AGENT_REASON_MAX + 1) },
      { state: 'unavailable', reason: 'line\nbreak' },
      { state: 'unavailable', reason: 'bell\u0007' },
      { state: 'unavailable', reason: 'flip\u202e' },
      { state: 'unavailable', reason: 'half\ud800' },
      { state: 'unavailable', reason: 42 },
      'running',
      null,
    ])
      expect({ agent, ...codeOf(await status({ adb_connected: true, agent })) }).toEqual({
        agent,
        ...refusedAsInvalid,
      });
    expect(await registered()).toEqual(before);
    expect(await agentOf()).toEqual(unavailable);

    // a worker from before the agent reports none: the last one stays
    expect((await status({ adb_connected: true })).status).toBe(200);
    expect(await agentOf()).toEqual(unavailable);
    expect((await status({ adb_connected: true, agent: { state: 'running', reason: null } })).status).toBe(200);
    expect(await agentOf()).toEqual({ state: 'running', reason: null });
    // what a sender does with a raw error message: any text becomes a reason the schema takes
    const reason = agentReasonText(`adb: error\n\tat Socket\u202e ${'y'.repeat(300)}`);
    expect((await status({ adb_connected: true, agent: { state: 'unavailable', reason } })).status).toBe(200);
    expect(await agentOf()).toEqual({ state: 'unavailable', reason });
  });

  it('phone host: odd serials, models and versions of a reported phone are 400 and write nothing', async () => {
    const report = (body: unknown) => deviceRequest(admin, host, 'POST', '/api/host/phones', { body });
    const cases = [
      ...ODD_SERIALS.map((serial) => ({ serial })),
      ...ODD_MODELS.map((model) => ({ model })),
      ...ODD_VERSIONS.map((app_version) => ({ app_version })),
      ...ODD_VERSIONS.map((android_version) => ({ android_version })),
    ];
    for (const odd of cases)
      expect({ odd, ...codeOf(await report({ ...HOST_PHONE, ...odd })) }).toEqual({ odd, ...refusedAsInvalid });
    expect(await hostPhones()).toBe(0);

    const phone = await report(HOST_PHONE);
    expect(phone.status).toBe(200);
    const deviceId = (phone.body as { device_id: string }).device_id;
    const health = (body: unknown) =>
      deviceRequest(admin, host, 'PUT', `/api/host/phones/${deviceId}/health`, { body });
    expect(codeOf(await health({ ...HEALTH, app_version: '7.28.0\u202e' }))).toEqual(refusedAsInvalid);
    expect(codeOf(await health({ ...HEALTH, app_version: '\udfff' }))).toEqual(refusedAsInvalid);
    expect((await health({ ...HEALTH, app_version: '7.28.0' })).status).toBe(200);
  });

  it('host registration: a name with a control, a direction control or a lone surrogate is 400 and issues nothing', async () => {
    const hosts = async () => (await admin.db.selectFrom('phone_hosts').select('host_id').execute()).length;
    const before = await hosts();
    for (const display_name of ['主机\u0007', '主机\u202e', '主机\ud800', '主机\u0085'])
      expect(codeOf(await op.post('/api/hosts', { display_name }))).toEqual(refusedAsInvalid);
    expect(await hosts()).toBe(before);
    expect((await op.post('/api/hosts', { display_name: '深圳主机-01' })).status).toBe(201);
  });
});
