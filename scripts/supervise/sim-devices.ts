import { issueDeviceCredential, rotateDeviceCredential } from '../../admin/auth/device-credentials';
import { openMigratedAdminDb } from '../../admin/db/database';
import { simPhoneSerials } from '../../sim/phone/phones';

/**
 * The simulated phones `npm start` runs, and a device credential for each. A phone keeps its
 * device id across restarts (found by its display name) and gets a fresh token each start; the
 * token reaches the device worker through its environment only — never the data dir.
 * How many: `CMAUTOBUY_SIM_PHONES` (default 2), read the way the simulator process reads it.
 */
export const SIM_PHONES: readonly string[] = simPhoneSerials();

export interface ProvisionedDevice {
  deviceId: string;
  serial: string;
  token: string;
}

const actor = { kind: 'system' as const, name: 'npm-start' };

export async function provisionSimDevices(
  adminDbFile: string,
  serials: readonly string[],
): Promise<ProvisionedDevice[]> {
  const db = await openMigratedAdminDb(adminDbFile);
  try {
    const out: ProvisionedDevice[] = [];
    for (const serial of serials) {
      const name = `sim:${serial}`;
      const existing = await db
        .selectFrom('device_credentials')
        .select('device_id')
        .where('display_name', '=', name)
        .where('status', '=', 'ACTIVE')
        .orderBy('created_at')
        .executeTakeFirst();
      const issued = existing
        ? await rotateDeviceCredential(db, actor, existing.device_id)
        : await issueDeviceCredential(db, actor, name);
      out.push({ deviceId: issued.deviceId, serial, token: issued.token });
    }
    return out;
  } finally {
    await db.destroy();
  }
}
