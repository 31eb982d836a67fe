import fs from 'node:fs';
import path from 'node:path';
import { startPhoneSim } from '../../sim/phone';
import { issueTestDevice, startTestAdmin, tempDataDir, type TestAdmin } from '../harness';
import { deviceWorker, FAST_TIMING, until } from './fixtures';

/**
 * Failure artifacts are kept for the days set on 设置 (`diagnostics.retention_days`): the phone
 * host learns the setting when it registers and cleans at once (and daily after that).
 */
describe('artifact retention from the admin setting', () => {
  let admin: TestAdmin | undefined;
  afterAll(async () => {
    await admin?.close();
  });

  it('removes artifacts older than the admin setting and keeps newer ones', async () => {
    admin = await startTestAdmin();
    await admin.db
      .insertInto('app_settings')
      .values({ setting_key: 'diagnostics.retention_days', value_json: '2', updated_at: '2026-01-01T00:00:00Z' })
      .execute();
    const device = await issueTestDevice(admin, 'retention phone');
    const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['ret-phone'] });
    const dataDir = tempDataDir('retention');
    const artifacts = path.join(dataDir, 'device', device.deviceId, 'artifacts');
    const make = (name: string, ageDays: number) => {
      const dir = path.join(artifacts, name);
      fs.mkdirSync(dir, { recursive: true });
      const when = new Date(Date.now() - ageDays * 86_400_000);
      fs.utimesSync(dir, when, when);
    };
    make('collect%2Fold', 5);
    make('collect%2Frecent', 1);

    const worker = await deviceWorker({
      deviceId: device.deviceId,
      serial: 'ret-phone',
      adb: { host: '127.0.0.1', port: sim.adbPort },
      dataDir,
      temporal: { address: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS!, namespace: admin.namespace },
      admin: { url: admin.url, token: device.token },
      timing: FAST_TIMING,
    });
    try {
      // 14 days by default: both survive the start-up cleanup; the admin's 2 days removes the old one.
      await until('the old artifact to go', () => !fs.existsSync(path.join(artifacts, 'collect%2Fold')));
      expect(fs.existsSync(path.join(artifacts, 'collect%2Frecent'))).toBe(true);
    } finally {
      await worker.stop();
      await sim.close();
    }
  });
});
