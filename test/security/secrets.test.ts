import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { runCli } from '../../admin/auth/cli-commands';
import pino from 'pino';
import { createLogger, REDACT_PATHS } from '../../platform/logger';
import { dataPaths } from '../../platform/data-dir';
import { OperatorClient, deviceRequest, startTestAdmin, tempDataDir, type TestAdmin } from '../harness';
import { uploadEvidence } from './evidence-client';
import { realPng } from './png-fixtures';

/** Every file below `dir`, as raw bytes (SQLite main file, WAL, logs, evidence …). */
function allFiles(dir: string): Array<{ file: string; bytes: Buffer }> {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    const file = path.join(e.parentPath, e.name);
    return e.isFile() ? [{ file, bytes: fs.readFileSync(file) }] : [];
  });
}

function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('no token or password in clear under the data dir or in logs', () => {
  it('after issuing, using and revoking a device token, logging in and out, adding a user', async () => {
    const dataDir = tempDataDir('secrets');
    const stdout = capture();
    // Every level down to trace, into a file under the data dir and into memory, with the
    // admin's own redaction rules.
    fs.mkdirSync(dataPaths(dataDir).logs, { recursive: true });
    const log = pino(
      { name: 'admin', level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
      pino.multistream([
        {
          level: 'trace',
          stream: pino.destination({ dest: path.join(dataPaths(dataDir).logs, 'admin.log'), sync: true }),
        },
        { level: 'trace', stream: stdout.stream },
      ]),
    );
    const adminPassword = 'first-admin-Secret-123';
    const admin: TestAdmin = await startTestAdmin({
      dataDir,
      log,
      runWorker: false,
      initialAdminPassword: adminPassword,
    });
    const cliOut: string[] = [];
    const io = (stdin = '') => ({
      readStdin: async () => stdin,
      out: (l: string) => cliOut.push(l),
      err: (l: string) => cliOut.push(l),
    });
    try {
      expect(await runCli(admin.db, ['device', 'issue', 'secret phone'], io())).toBe(0);
      const deviceId = cliOut.find((l) => l.startsWith('device_id='))!.slice('device_id='.length);
      const token = cliOut.find((l) => l.startsWith('token='))!.slice('token='.length);
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      const device = { authorization: `Bearer ${deviceId}.${token}` };
      expect(
        (
          await deviceRequest(admin, device, 'POST', '/api/device/register', {
            body: { serial: 's1', model: 'm1', app_version: '7.0' },
          })
        ).status,
      ).toBe(200);
      expect(
        (await uploadEvidence(admin, { ...device, deviceId, token }, { file: realPng(), upload_key: 'secret-shot' }))
          .status,
      ).toBe(201);

      const userPassword = 'second-user-Secret-456';
      expect(await runCli(admin.db, ['user', 'add', 'frank'], io(`${userPassword}\n`))).toBe(0);
      const operator = new OperatorClient(admin.url);
      expect((await operator.login('frank', userPassword)).status).toBe(200);
      expect((await operator.login('admin', adminPassword)).status).toBe(200);
      expect((await operator.login('admin', 'typo-of-the-Secret-789')).status).toBe(401);
      const cookieValue = operator.sessionCookie!.split('=')[1]!;
      const csrf = operator.csrfToken!;
      expect((await operator.get('/api/me')).status).toBe(200);
      expect((await operator.del('/api/session')).status).toBe(204);
      expect(await runCli(admin.db, ['device', 'revoke', deviceId], io())).toBe(0);
      expect((await deviceRequest(admin, device, 'POST', '/api/device/register', { body: {} })).status).toBe(401);

      await settle();
      await admin.close();
      await settle();

      const files = allFiles(dataDir);
      expect(files.some((f) => f.file.endsWith('.log') && f.bytes.includes('/api/device/evidence'))).toBe(true); // the logs really were written
      const secrets: Record<string, Buffer> = {
        'device token (hex)': Buffer.from(token),
        'device token (raw bytes)': Buffer.from(token, 'hex'),
        'admin password': Buffer.from(adminPassword),
        'user password': Buffer.from(userPassword),
        'mistyped password': Buffer.from('typo-of-the-Secret-789'),
        'session cookie (hex)': Buffer.from(cookieValue),
        'session cookie (raw bytes)': Buffer.from(cookieValue, 'hex'),
        'csrf token': Buffer.from(csrf),
      };
      const leaks = files.flatMap(({ file, bytes }) =>
        Object.entries(secrets)
          .filter(([, secret]) => bytes.includes(secret))
          .map(([what]) => `${what} in ${path.relative(dataDir, file)}`),
      );
      const logged = stdout.text();
      for (const [what, secret] of Object.entries(secrets))
        if (logged.includes(secret.toString('latin1'))) leaks.push(`${what} in stdout log`);
      expect(leaks).toEqual([]);
    } finally {
      await admin.close().catch(() => undefined);
    }
  });

  it('announces a generated first-start password exactly once, and keeps it nowhere', async () => {
    const dataDir = tempDataDir('first-start');
    const stdout = capture();
    const log = createLogger({ name: 'admin', level: 'trace', logDir: dataPaths(dataDir).logs, stdout: stdout.stream });
    const announced: string[] = [];
    const first = await startTestAdmin({
      dataDir,
      log,
      runWorker: false,
      initialAdminPassword: undefined,
      announce: (l) => announced.push(l),
    });
    let password = '';
    try {
      expect(announced).toHaveLength(1);
      password = /: (\S+)$/.exec(announced[0]!)![1]!;
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect((await new OperatorClient(first.url).login('admin', password)).status).toBe(200);
    } finally {
      await first.close();
    }
    const second = await startTestAdmin({
      dataDir,
      log,
      runWorker: false,
      initialAdminPassword: undefined,
      announce: (l) => announced.push(l),
    });
    await second.close();
    expect(announced).toHaveLength(1);
    await settle();
    const leaks = allFiles(dataDir)
      .filter((f) => f.bytes.includes(password))
      .map((f) => f.file);
    expect(leaks).toEqual([]);
    expect(stdout.text()).not.toContain(password);
  });
});
