import type { DeviceView, IssuedDeviceView } from '../../domain/devices';
import { deviceWorkerCommand, type DeviceWorkerHints } from '../../domain/device-worker-command';
import { deviceRequest, loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

jest.setTimeout(120_000);

const HINTS: DeviceWorkerHints = {
  admin_url: null,
  temporal_address: '127.0.0.1:7233',
  temporal_namespace: 'cmautobuy',
  temporal_tls: false,
  temporal_mtls: false,
  temporal_ca: false,
  temporal_server_name: null,
  temporal_api_key: false,
};

describe('the single-phone command (发放设备凭据 → 完整命令)', () => {
  it('names Temporal, its namespace, the TLS material and the admin public URL; a loopback Temporal is a placeholder', () => {
    const issued = { device_id: 'd-1', token: 'f'.repeat(64) };
    const local = deviceWorkerCommand(issued, HINTS, 'http://admin.lan:8080');
    expect(local).toContain('CMAUTOBUY_TEMPORAL_ADDRESS=<Temporal 地址:7233>');
    expect(local).toContain('CMAUTOBUY_TEMPORAL_NAMESPACE=cmautobuy');
    expect(local).toContain('CMAUTOBUY_ADMIN_PUBLIC_URL=http://admin.lan:8080');
    expect(local).toContain('--admin-url http://admin.lan:8080');
    expect(local).not.toContain('TLS');
    const cloud = deviceWorkerCommand(
      issued,
      {
        ...HINTS,
        admin_url: 'https://buy.example.com',
        temporal_address: 'ns.tmprl.cloud:7233',
        temporal_tls: true,
        temporal_mtls: true,
        temporal_ca: true,
        temporal_server_name: 'ns.tmprl.cloud',
      },
      'http://ignored',
    );
    expect(cloud).toContain('CMAUTOBUY_TEMPORAL_ADDRESS=ns.tmprl.cloud:7233');
    expect(cloud).toContain('CMAUTOBUY_TEMPORAL_TLS_CA=<CA 证书文件>');
    expect(cloud).toContain('CMAUTOBUY_TEMPORAL_TLS_CERT=<客户端证书文件>');
    expect(cloud).toContain('CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME=ns.tmprl.cloud');
    expect(cloud).toContain('--admin-url https://buy.example.com');
    expect(deviceWorkerCommand(issued, { ...HINTS, temporal_tls: true, temporal_api_key: true }, 'x')).toMatch(
      /CMAUTOBUY_TEMPORAL_TLS=1 .*CMAUTOBUY_TEMPORAL_API_KEY=<Temporal API key>/,
    );
  });

  describe('with an admin', () => {
    let admin: TestAdmin;
    let op: OperatorClient;
    beforeAll(async () => {
      process.env.CMAUTOBUY_ADMIN_PUBLIC_URL = 'https://buy.example.com/';
      admin = await startTestAdmin();
      op = await loginOperator(admin);
    });
    afterAll(async () => {
      delete process.env.CMAUTOBUY_ADMIN_PUBLIC_URL;
      await admin?.close();
    });

    it('发放设备凭据 answers the hints; a phone that registered but whose worker polls no queue is 已注册，未连上 Temporal', async () => {
      const res = await op.post('/api/devices', { display_name: '手动-01' });
      expect(res.status).toBe(201);
      const issued = res.body as IssuedDeviceView;
      expect(issued.worker_hints).toMatchObject({
        admin_url: 'https://buy.example.com',
        temporal_namespace: admin.namespace,
        temporal_tls: false,
      });
      const view = async () =>
        ((await op.get('/api/devices')).body as DeviceView[]).find((d) => d.device_id === issued.device_id)!;
      // issued, never started: nothing to say yet
      expect((await view()).temporal_missing).toBe(false);
      const auth = { authorization: `Bearer ${issued.device_id}.${issued.token}` };
      const reg = await deviceRequest(admin, auth, 'POST', '/api/device/register', {
        body: { serial: 'manual-1', model: 'Pixel 6', app_version: '8.17.0' },
      });
      expect(reg.status).toBe(200);
      expect(await view()).toMatchObject({ online: false, online_source: 'temporal', temporal_missing: true });
      // the phone left ADB: that explains it being offline, not Temporal
      await deviceRequest(admin, auth, 'POST', '/api/device/status', { body: { adb_connected: false } });
      expect((await view()).temporal_missing).toBe(false);
    });
  });
});
