import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { tempDataDir } from '../harness';

const ROOT = path.resolve(__dirname, '../..');

/**
 * A device worker on another host must not talk plain gRPC to a Temporal server off loopback
 * (docs/architecture.md §2.3): the same rule as the admin, refused before any connection is tried. The
 * `.invalid` name can never resolve, so nothing leaves this machine even if the rule broke.
 */
describe('device worker transport rule', () => {
  it('refuses a non-loopback Temporal address without TLS, and names the way out', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'workers/main-device-worker.ts'),
        '--device-id',
        'a1b2c3d4-0000-4000-8000-000000000000',
        '--serial',
        'x',
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          CMAUTOBUY_TEMPORAL_ADDRESS: 'temporal.invalid:7233',
          CMAUTOBUY_DATA_DIR: tempDataDir('dw-tls'),
          CMAUTOBUY_DEVICE_TOKEN: '',
        },
      },
    );
    expect(r.status).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/not on loopback/);
    expect(`${r.stdout}${r.stderr}`).toMatch(/CMAUTOBUY_TEMPORAL_TLS=1/);
  });
});
