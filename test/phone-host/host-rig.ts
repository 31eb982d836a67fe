import { issueHostCredential } from '../../admin/auth/host-credentials';
import type { DeviceView } from '../../domain/devices';
import { PhoneHost } from '../../phone-host/host';
import { HostMetrics } from '../../phone-host/metrics';
import { startPhoneSim, type PhoneSim } from '../../sim/phone';
import {
  loginOperator,
  startTestAdmin,
  tempDataDir,
  testLogger,
  type OperatorClient,
  type TestAdmin,
} from '../harness';
import { releaseAppVersionInTestDb } from '../purchase/setup';
import { until } from './operator-steps';

export interface HostRig {
  sim: PhoneSim;
  host: PhoneHost;
  /** device id by serial, once approved */
  devices: Map<string, string>;
  close(): Promise<void>;
}

/**
 * The simulator's phones on a real phone host (its device workers real processes in the admin's
 * Temporal namespace), each phone approved by `op` and its first frame served by the admin.
 */
export async function startHostRig(admin: TestAdmin, op: OperatorClient, serials: string[]): Promise<HostRig> {
  const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: serials });
  const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, '测试主机');
  const host = new PhoneHost({
    adminUrl: admin.url,
    hostId: issued.hostId,
    token: issued.token,
    adb: { host: '127.0.0.1', port: sim.adbPort },
    dataDir: tempDataDir('phone-host'),
    log: testLogger('phone-host'),
    metrics: new HostMetrics(),
    metricsTarget: null,
    syncMs: 300,
    healthMs: 60_000,
    workerEnv: {
      CMAUTOBUY_TEMPORAL_ADDRESS: process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS,
      CMAUTOBUY_TEMPORAL_NAMESPACE: admin.namespace,
      CMAUTOBUY_LOG_LEVEL: 'warn',
      // no payload keys: the host gets them over its admin channel
    },
  });
  await host.start();
  const devices = new Map<string, string>();
  for (const serial of serials) {
    const pending = await until(
      async () => ((await op.get('/api/devices')).body as DeviceView[]).find((d) => d.serial === serial),
      (d) => d?.state === 'pending',
      `${serial} pending`,
    );
    const deviceId = (pending as DeviceView).device_id;
    const approved = await op.post(`/api/devices/${deviceId}/approve`);
    if (approved.status !== 200) throw new Error(`approve ${serial}: ${approved.status}`);
    devices.set(serial, deviceId);
    await until(
      () => op.get(`/api/devices/${deviceId}/screen`),
      (r) => r.status === 200,
      `a first frame of ${serial}`,
    );
  }
  return {
    sim,
    host,
    devices,
    async close() {
      await host.stop();
      await sim.close();
    },
  };
}

export interface HostStack {
  admin: TestAdmin;
  op: OperatorClient;
  rig: HostRig;
  /** the approved phone's device id */
  deviceId: string;
  close(): Promise<void>;
}

/**
 * A real admin (with its worker, the app version released for live purchases), an operator
 * logged in, and one simulator phone on a real phone host, approved: what a test of a phone in
 * an operator's hands starts from.
 */
export async function startHostStack(serial: string): Promise<HostStack> {
  const admin = await startTestAdmin();
  await releaseAppVersionInTestDb(admin);
  const op = await loginOperator(admin);
  const rig = await startHostRig(admin, op, [serial]);
  return {
    admin,
    op,
    rig,
    deviceId: rig.devices.get(serial) as string,
    async close() {
      await rig.close();
      await admin.close();
    },
  };
}
