import fs from 'node:fs';
import path from 'node:path';
import { parseDeviceWorkerArgs } from '../../device-worker/args';
import { readDeviceToken } from '../../device-worker/token';
import { ConfigError } from '../../platform/config';
import { tempDataDir } from '../harness';

const REQUIRED = ['--device-id', 'dev-1', '--serial', 'sim-phone-1'];

/** `npm run device-worker` reads flags and environment through one schema, like the admin. */
describe('device worker options', () => {
  it('uses the documented defaults and lets a flag win over its variable', () => {
    const c = parseDeviceWorkerArgs(REQUIRED, {});
    expect(c).toMatchObject({
      deviceId: 'dev-1',
      serial: 'sim-phone-1',
      adb: { host: '127.0.0.1', port: 5037 },
      dataDir: path.resolve('./data'),
      adminUrl: undefined,
      logLevel: 'info',
      temporal: { address: '127.0.0.1:7233', namespace: 'cmautobuy', tls: undefined },
    });
    const env = {
      CMAUTOBUY_DEVICE_ID: 'from-env',
      CMAUTOBUY_DATA_DIR: '/srv/env-data',
      CMAUTOBUY_ADMIN_URL: 'http://env.invalid',
      CMAUTOBUY_TEMPORAL_PORT: '7300',
    };
    expect(parseDeviceWorkerArgs(['--serial', 's'], env)).toMatchObject({
      deviceId: 'from-env',
      dataDir: '/srv/env-data',
      adminUrl: 'http://env.invalid',
      temporal: { address: '127.0.0.1:7300' },
    });
    expect(
      parseDeviceWorkerArgs([...REQUIRED, '--data-dir=/srv/flag-data', '--admin-url', 'https://admin.internal'], env),
    ).toMatchObject({
      deviceId: 'dev-1',
      dataDir: '/srv/flag-data',
      adminUrl: 'https://admin.internal',
    });
  });

  it('stops with a ConfigError naming each bad flag or variable', () => {
    const fails = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
      try {
        parseDeviceWorkerArgs(argv, env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error(`accepted ${argv.join(' ')}`);
    };
    expect(fails(['--serial', 's'])).toMatch(/--device-id: required/);
    expect(fails(['--device-id', 'dev-1'])).toMatch(/--serial: required/);
    expect(fails([...REQUIRED, '--adb-port', '0'])).toMatch(/--adb-port/);
    expect(fails([...REQUIRED, '--adb-port', 'eighty'])).toMatch(/--adb-port/);
    expect(fails(['--device-id', '../etc', '--serial', 's'])).toMatch(/--device-id: must be a safe folder name/);
    expect(fails([...REQUIRED, '--admin-url', 'not a url'])).toMatch(/--admin-url/);
    expect(fails([...REQUIRED, '--artifact-retention-days', '0'])).toMatch(/--artifact-retention-days/);
    expect(fails([...REQUIRED, '--unknown', 'x'])).toMatch(/unknown option --unknown/);
    expect(fails(REQUIRED, { CMAUTOBUY_TEMPORAL_ADDRESS: 'http://x' })).toMatch(/CMAUTOBUY_TEMPORAL_ADDRESS/);
    expect(fails(REQUIRED, { CMAUTOBUY_LOG_LEVEL: 'loud' })).toMatch(/CMAUTOBUY_LOG_LEVEL/);
  });

  it('never echoes the token, and refuses a token file inside the data dir', () => {
    const token = 'ab'.repeat(32);
    try {
      parseDeviceWorkerArgs(['--serial', 's', '--admin-url', 'nope'], { CMAUTOBUY_DEVICE_TOKEN: token });
      throw new Error('expected a failure');
    } catch (err) {
      expect((err as Error).message).not.toContain(token);
    }
    const dataDir = tempDataDir('dw-token');
    const inside = path.join(dataDir, 'token');
    fs.writeFileSync(inside, `token=${token}\n`);
    expect(() => readDeviceToken({ file: inside, dataDir })).toThrow(/inside the data dir/);
    expect(readDeviceToken({ file: inside, dataDir: path.join(dataDir, 'other') })).toBe(token);
    expect(readDeviceToken({ env: ` ${token} `, file: inside, dataDir })).toBe(token);
  });
});
