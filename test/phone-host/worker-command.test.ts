import type { DeviceView, IssuedDeviceView } from '../../domain/devices';
import { runCli } from '../../admin/auth/cli-commands';
import { hostSetupFacts } from '../../admin/hosts/setup';
import { deviceWorkerCommand } from '../../domain/device-worker-command';
import { hostSetupCommand, type HostSetupFacts } from '../../domain/host-setup';
import type { TemporalConnectionSettings } from '../../temporal/connection';
import { deviceRequest, loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

jest.setTimeout(120_000);

const CA = '-----BEGIN CERTIFICATE-----\nMIIBcDCCARagAwIBAgIUQ==\n-----END CERTIFICATE-----';

const FACTS: HostSetupFacts = {
  admin_public_url: 'https://buy.example.com',
  repository_url: 'git@example.com:ops/cmautobuy.git',
  temporal: {
    address: 'temporal.internal:7233',
    namespace: 'cmautobuy',
    loopback: false,
    tls: true,
    server_name: null,
    ca_pem: null,
    client_certificate: false,
    api_key: false,
  },
};
const issued = { device_id: '5d1c0e2a-7b3f-4e9a-8c6d-1f2e3a4b5c6d', token: 'f'.repeat(64) };

describe('the single-phone command (发放设备凭据)', () => {
  it('is the phone host set-up for one worker: the token file, the payload keys asked for, the public URL as --admin-url', () => {
    const c = deviceWorkerCommand(FACTS, issued)!;
    expect(c.run).toBe(
      [
        'umask 077 && mkdir -p "$HOME/.cmautobuy"',
        `cat > "$HOME/.cmautobuy/device-5d1c0e2a.token" <<'TOKEN'`,
        `device_id=${issued.device_id}`,
        `token=${issued.token}`,
        'TOKEN',
        "read -rsp 'Payload keys (CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS of the admin): ' CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS && echo && export CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS",
        'CMAUTOBUY_TEMPORAL_ADDRESS=temporal.internal:7233 \\',
        'CMAUTOBUY_TEMPORAL_NAMESPACE=cmautobuy \\',
        'CMAUTOBUY_TEMPORAL_TLS=1 \\',
        `npm run device-worker -- --device-id ${issued.device_id} --serial <adb serial> --token-file "$HOME/.cmautobuy/device-5d1c0e2a.token" --admin-url https://buy.example.com`,
      ].join('\n'),
    );
    expect(c.install).toBe(hostSetupCommand(FACTS, { host_id: issued.device_id, token: issued.token })!.install);
    expect(c.needs).toEqual(['payload-keys', 'adb-serial']);
  });

  it('takes the same Temporal pieces as the host: CA written, client pair placed, API key asked; none without the public URL', () => {
    const c = deviceWorkerCommand(
      {
        ...FACTS,
        temporal: {
          ...FACTS.temporal,
          server_name: 'ns.tmprl.cloud',
          ca_pem: CA,
          client_certificate: true,
          api_key: true,
        },
      },
      issued,
    )!;
    expect(c.run).toContain(`cat > "$HOME/.cmautobuy/temporal-ca.pem" <<'PEM'\n${CA}\nPEM`);
    expect(c.run).toContain('CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME=ns.tmprl.cloud \\');
    expect(c.run).toContain('CMAUTOBUY_TEMPORAL_TLS_CERT="$HOME/.cmautobuy/temporal-client.pem" \\');
    expect(c.run).toMatch(/read -rsp 'Temporal API key: '.*\nread -rsp 'Payload keys/);
    expect(c.needs).toEqual(['client-certificate', 'api-key', 'payload-keys', 'adb-serial']);
    expect(deviceWorkerCommand({ ...FACTS, admin_public_url: null }, issued)).toBeNull();
  });

  describe('with an admin', () => {
    let admin: TestAdmin;
    let op: OperatorClient;
    beforeAll(async () => {
      admin = await startTestAdmin();
      op = await loginOperator(admin);
    });
    afterAll(async () => {
      await admin?.close();
    });

    it('发放设备凭据 answers the set-up facts, the public URL from 设置 (never the environment); a phone that registered but whose worker polls no queue is 已注册，未连上 Temporal', async () => {
      process.env.CMAUTOBUY_ADMIN_PUBLIC_URL = 'https://env.example.com';
      try {
        const unset = (await op.post('/api/devices', { display_name: '手动-00' })).body as IssuedDeviceView;
        expect(unset.setup.admin_public_url).toBeNull();
      } finally {
        delete process.env.CMAUTOBUY_ADMIN_PUBLIC_URL;
      }
      expect((await op.put('/api/settings', { 'admin.public_url': 'https://buy.example.com/' })).status).toBe(200);
      const res = await op.post('/api/devices', { display_name: '手动-01' });
      expect(res.status).toBe(201);
      const issued = res.body as IssuedDeviceView;
      expect(issued.setup).toMatchObject({
        admin_public_url: 'https://buy.example.com',
        temporal: { namespace: admin.namespace, tls: false, loopback: true },
      });
      expect(JSON.stringify(issued.setup)).not.toMatch(/PAYLOAD|payload_key/i);
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

    it('`host issue` prints the two token lines on stdout and the same set-up as 发放主机凭据 on stderr', async () => {
      const out: string[] = [];
      const err: string[] = [];
      const temporal: TemporalConnectionSettings = { address: 'temporal.internal:7233', namespace: 'ops', tls: {} };
      const io = {
        readStdin: async () => '',
        out: (l: string) => out.push(l),
        err: (l: string) => err.push(l),
        hostSetupFacts: () => hostSetupFacts(admin.db, temporal),
      };
      expect(await runCli(admin.db, ['host', 'issue', '机房-cli'], io)).toBe(0);
      expect(out).toEqual([
        expect.stringMatching(/^host_id=[0-9a-f-]{36}$/),
        expect.stringMatching(/^token=[0-9a-f]{64}$/),
      ]);
      const [hostId, token] = out.map((l) => l.slice(l.indexOf('=') + 1));
      const facts = await hostSetupFacts(admin.db, temporal);
      expect(facts.admin_public_url).toBe('https://buy.example.com');
      expect(err.join('\n')).toContain(hostSetupCommand(facts, { host_id: hostId!, token: token! })!.run);
      expect(err.join('\n')).toContain('CMAUTOBUY_TEMPORAL_NAMESPACE=ops \\');

      await op.put('/api/settings', { 'admin.public_url': null });
      err.length = 0;
      expect(await runCli(admin.db, ['host', 'issue', '机房-cli-2'], io)).toBe(0);
      expect(err.join('\n')).toMatch(/^admin\.public_url is not set \(设置 → 管理服务对外地址\)/);
    });
  });
});
