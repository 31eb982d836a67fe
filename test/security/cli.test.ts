import { spawn } from 'node:child_process';
import path from 'node:path';
import { OperatorClient, deviceRequest, loginOperator, startTestAdmin, type TestAdmin } from '../harness';

const ROOT = path.resolve(__dirname, '../..');

/** The real `npm run cli` entry (tsx admin/cli.ts), run beside a live admin on the same data dir. */
function cli(
  admin: TestAdmin,
  args: string[],
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'admin/cli.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, CMAUTOBUY_DATA_DIR: admin.dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('npm run cli -- user|device … while the admin runs', () => {
  let admin: TestAdmin;
  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('issues a device token shown once, lists it, and a revocation refuses the next request', async () => {
    const issued = await cli(admin, ['device', 'issue', 'Pixel 7 (desk 2)']);
    expect(issued.code).toBe(0);
    const lines = issued.stdout.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^device_id=[0-9a-f-]{36}$/),
      expect.stringMatching(/^token=[0-9a-f]{64}$/),
    ]);
    const deviceId = lines[0]!.slice('device_id='.length);
    const token = lines[1]!.slice('token='.length);
    const device = { authorization: `Bearer ${deviceId}.${token}` };
    expect(
      (
        await deviceRequest(admin, device, 'POST', '/api/device/register', {
          body: { serial: 'x', model: 'y', app_version: '1' },
        })
      ).status,
    ).toBe(200);

    const list = await cli(admin, ['device', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${deviceId}\tACTIVE\tPixel 7 (desk 2)`);
    expect(list.stdout).not.toContain(token);

    const revoked = await cli(admin, ['device', 'revoke', deviceId]);
    expect(revoked.code).toBe(0);
    expect(
      (
        await deviceRequest(admin, device, 'POST', '/api/device/register', {
          body: { serial: 'x', model: 'y', app_version: '1' },
        })
      ).status,
    ).toBe(401);
    expect((await cli(admin, ['device', 'list'])).stdout).toContain(`${deviceId}\tREVOKED`);

    const audit = await admin.db
      .selectFrom('audit_log')
      .select(['actor_kind', 'action', 'target_id'])
      .where('target_id', '=', deviceId)
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { actor_kind: 'cli', action: 'device.issue', target_id: deviceId },
        { actor_kind: 'cli', action: 'device.revoke', target_id: deviceId },
      ]),
    );
  });

  it("adds a user with the password from stdin; passwd ends that user's sessions", async () => {
    expect((await cli(admin, ['user', 'add', 'grace'], 'grace-password-1\n')).code).toBe(0);
    const grace = await loginOperator(admin, 'grace', 'grace-password-1');
    expect((await cli(admin, ['user', 'list'])).stdout).toMatch(/^grace\t/m);

    expect((await cli(admin, ['user', 'passwd', 'grace'], 'grace-password-2\n')).code).toBe(0);
    expect((await grace.get('/api/me')).status).toBe(401);
    expect((await new OperatorClient(admin.url).login('grace', 'grace-password-1')).status).toBe(401);
    expect((await new OperatorClient(admin.url).login('grace', 'grace-password-2')).status).toBe(200);
  });

  it('refuses bad input with a message and a non-zero exit, changing nothing', async () => {
    const short = await cli(admin, ['user', 'add', 'heidi'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 8/);
    expect((await cli(admin, ['user', 'add', 'grace'], 'another-password\n')).code).toBe(1);
    expect((await cli(admin, ['device', 'revoke', 'nope'])).code).toBe(1);
    expect((await cli(admin, ['frobnicate'])).code).toBe(2);
    expect((await cli(admin, ['user', 'list'])).stdout).not.toMatch(/^heidi/m);
  });
});
