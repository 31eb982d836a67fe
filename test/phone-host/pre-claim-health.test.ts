import type { DeviceView } from '../../domain/devices';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';

jest.setTimeout(300_000);

/**
 * The device worker reads its phone's health right before it takes a claim
 * (docs/phone-hosts.md "Health"), not only its host every minute: here no host reads anything,
 * so only that pre-claim reading can stop the claim and put the reason on 设备. It claims again
 * by itself once the phone is healthy.
 */
describe('health read before each claim', () => {
  let rig: PurchaseRig;

  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  const device = async () =>
    ((await rig.op.get('/api/devices')).body as DeviceView[]).find((d) => d.device_id === rig.device.deviceId)!;
  async function until(check: (d: DeviceView) => boolean, what: string): Promise<DeviceView> {
    let last: DeviceView | undefined;
    for (let i = 0; i < 600; i++) {
      last = await device();
      if (check(last)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`never saw ${what}; last: ${JSON.stringify(last)}`);
  }
  const dryRun = () => rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });

  it('a flat phone takes no claim (LOW_BATTERY on 设备) and claims once it is charging', async () => {
    expect((await device()).health).toBeNull();
    rig.sim.phone(rig.serial).setHealth({ battery_level: 8, charging: false });
    const t = await dryRun();
    const blocked = await until((d) => d.claim_block?.reason_code === 'LOW_BATTERY', 'LOW_BATTERY');
    expect(blocked.health).toMatchObject({ battery_level: 8, charging: false });
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await rig.task(t)).status).toBe('PENDING');
    expect(rig.taps()).toHaveLength(0);

    rig.sim.phone(rig.serial).setHealth({ battery_level: 8, charging: true });
    expect((await rig.waitFor(t, ['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED'])).status).toBe('DRY_RUN_PASSED');
    expect((await device()).claim_block).toBeNull();
  });

  it('a PDD version the worker has no page profile for takes no claim (APP_VERSION_UNPROFILED)', async () => {
    rig.sim.phone(rig.serial).setFaults({ app_version: '1.0.0' });
    const t = await dryRun();
    await until((d) => d.claim_block?.reason_code === 'APP_VERSION_UNPROFILED', 'APP_VERSION_UNPROFILED');
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await rig.task(t)).status).toBe('PENDING');
    rig.sim.phone(rig.serial).clearFaults();
    expect((await rig.waitFor(t, ['DRY_RUN_PASSED', 'NEEDS_MANUAL', 'FAILED'])).status).toBe('DRY_RUN_PASSED');
  });
});
