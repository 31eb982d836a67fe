import { sleep } from '@temporalio/workflow';
import type { DeviceHealth } from '../domain/contracts/device-activities';
import { withDevice } from './device-claim';

/**
 * Claim an idle phone, report who it is and whether we can drive its PDD app, release it.
 * `holdSeconds` keeps the claim open (tests: claim races, ownership, worker restarts).
 */
export async function deviceCheck(
  input: { holdSeconds?: number; waitForDeviceSeconds?: number } = {},
): Promise<DeviceHealth> {
  return withDevice(
    { waitForDevice: `${input.waitForDeviceSeconds ?? 120} seconds` },
    async ({ claim, activities }) => {
      if (input.holdSeconds && input.holdSeconds > 0) await sleep(input.holdSeconds * 1000);
      return activities.deviceHealth({ claim });
    },
  );
}
