import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { parseEnv } from '../../admin/config/env';
import { assertAdminListenIsSafe } from '../../admin/config/tls';
import { ConfigError } from '../../platform/config';
import { isLoopbackHost } from '../../platform/network';
import { temporalTls } from '../../temporal/connection';
import { startTestAdmin, tempDataDir, TEST_ADMIN_PASSWORD } from '../harness';

describe('transport: loopback unless TLS', () => {
  it('knows loopback when it sees it', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect({ h, loop: isLoopbackHost(h) }).toEqual({ h, loop: true });
    for (const h of ['0.0.0.0', '::', '192.168.1.5', 'admin.internal', '10.0.0.1'])
      expect({ h, loop: isLoopbackHost(h) }).toEqual({ h, loop: false });
  });

  it('refuses a non-loopback listener without TLS unless explicitly allowed', () => {
    expect(() =>
      assertAdminListenIsSafe({ host: '0.0.0.0', tls: undefined, allowPlaintextNonLoopback: false }),
    ).toThrow(ConfigError);
    expect(() =>
      assertAdminListenIsSafe({ host: '0.0.0.0', tls: undefined, allowPlaintextNonLoopback: true }),
    ).not.toThrow();
    expect(() =>
      assertAdminListenIsSafe({ host: '127.0.0.1', tls: undefined, allowPlaintextNonLoopback: false }),
    ).not.toThrow();
  });

  it('startAdmin itself refuses 0.0.0.0 without TLS', async () => {
    await expect(startTestAdmin({ host: '0.0.0.0', runWorker: false })).rejects.toThrow(/without TLS/);
  });

  it('refuses plain gRPC to a non-loopback Temporal, and builds mTLS settings from files', () => {
    expect(() => temporalTls(parseEnv({}), 'temporal.internal:7233')).toThrow(/not on loopback/);
    expect(
      temporalTls(parseEnv({ CMAUTOBUY_TEMPORAL_ALLOW_PLAINTEXT: '1' }), 'temporal.internal:7233'),
    ).toBeUndefined();
    expect(temporalTls(parseEnv({}), '127.0.0.1:7233')).toBeUndefined();
    const dir = tempDataDir('tls-files');
    for (const f of ['ca.pem', 'crt.pem', 'key.pem']) fs.writeFileSync(path.join(dir, f), `-- ${f} --`);
    const tls = temporalTls(
      parseEnv({
        CMAUTOBUY_TEMPORAL_TLS_CA: path.join(dir, 'ca.pem'),
        CMAUTOBUY_TEMPORAL_TLS_CERT: path.join(dir, 'crt.pem'),
        CMAUTOBUY_TEMPORAL_TLS_KEY: path.join(dir, 'key.pem'),
        CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
      }),
      'temporal.internal:7233',
    );
    expect(tls?.serverNameOverride).toBe('temporal.internal');
    expect(tls?.serverRootCACertificate?.toString()).toBe('-- ca.pem --');
    expect(tls?.clientCertPair?.crt.toString()).toBe('-- crt.pem --');
    expect(() =>
      temporalTls(parseEnv({ CMAUTOBUY_TEMPORAL_TLS_CERT: path.join(dir, 'crt.pem') }), '127.0.0.1:7233'),
    ).toThrow(/go together/);
  });

  it('serves HTTPS with a configured certificate, and the session cookie is then Secure', async () => {
    const dir = tempDataDir('tls-cert');
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const admin = await startTestAdmin({
      runWorker: false,
      tls: { cert: fs.readFileSync(cert), key: fs.readFileSync(key) },
    });
    try {
      expect(admin.url).toMatch(/^https:/);
      const setCookie = await new Promise<string[]>((resolve, reject) => {
        const req = https.request(
          `${admin.url}/api/session`,
          {
            method: 'POST',
            ca: fs.readFileSync(cert),
            checkServerIdentity: () => undefined,
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            resolve(res.headers['set-cookie'] ?? []);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }));
      });
      expect(setCookie.find((c) => c.startsWith('cmautobuy_session='))).toMatch(/;\s*secure/i);
    } finally {
      await admin.close();
    }
  });
});
