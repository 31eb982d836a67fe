import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseHostToken, parsePhoneHostArgs } from './args';

describe('phone host options', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'phone-host-args-'));
  const hostId = '0c7c3f1e-2d7a-4c8e-9a51-3f0e2b7d9c11';
  const token = 'ab'.repeat(32);
  const file = path.join(dir, 'host.token');
  fs.writeFileSync(file, `host_id=${hostId}\ntoken=${token}\n`);

  it('reads the two lines `host issue` printed', () => {
    expect(parseHostToken(`host_id=${hostId}\ntoken=${token}\n`)).toEqual({ hostId, token });
    expect(() => parseHostToken(`token=${token}`)).toThrow(/host_id/);
    const c = parsePhoneHostArgs(
      [
        '--admin-url',
        'http://admin:8080',
        '--token-file',
        file,
        '--adb-port',
        '15037',
        '--data-dir',
        path.join(dir, 'd'),
      ],
      {},
    );
    expect(c).toMatchObject({ hostId, token, adb: { host: '127.0.0.1', port: 15037 }, adminUrl: 'http://admin:8080' });
  });

  it('takes the credential from CMAUTOBUY_HOST_TOKEN when no file is given (npm start), and wants one of them', () => {
    const env = { CMAUTOBUY_HOST_TOKEN: `host_id=${hostId}\ntoken=${token}\n` };
    expect(parsePhoneHostArgs(['--admin-url', 'http://admin:8080', '--data-dir', dir], env)).toMatchObject({
      hostId,
      token,
    });
    expect(() => parsePhoneHostArgs(['--admin-url', 'http://admin:8080', '--data-dir', dir], {})).toThrow(
      /--token-file is required/,
    );
  });

  it('refuses a token file inside the data dir', () => {
    expect(() =>
      parsePhoneHostArgs(['--admin-url', 'http://admin:8080', '--token-file', file, '--data-dir', dir], {}),
    ).toThrow(/inside the data dir/);
  });
});
