import { revokeDeviceCredential } from '../../admin/auth/device-credentials';
import { openMigratedAdminDb } from '../../admin/db/database';
import { approveEmbeddedPhones, embeddedHostCredential } from '../../admin/hosts/embedded';

/**
 * The phone host `npm start` runs for the simulator (docs/phone-hosts.md "Under npm start"): one
 * host credential, issued on the first start and rotated at each one (the token goes to the
 * phone host's environment only), and the phones the simulator has at start approved by the
 * system. A phone added to the simulator later waits as 待批准 like on any host.
 */
const SIM_HOST_NAME = 'npm-start 模拟手机';

const actor = { kind: 'system' as const, name: 'npm-start' };

export async function simHostCredential(adminDbFile: string): Promise<{ hostId: string; env: string }> {
  const db = await openMigratedAdminDb(adminDbFile);
  try {
    // a data dir from before the phone host had one device credential per simulated phone
    // (`sim:<serial>`): those phones are this host's now, so the old entries leave 设备
    const legacy = await db
      .selectFrom('device_credentials')
      .select('device_id')
      .where('display_name', 'like', 'sim:%')
      .where('status', '=', 'ACTIVE')
      .execute();
    for (const d of legacy) await revokeDeviceCredential(db, actor, d.device_id);
    const { hostId, token } = await embeddedHostCredential(db, actor, SIM_HOST_NAME);
    return { hostId, env: `host_id=${hostId}\ntoken=${token}\n` };
  } finally {
    await db.destroy();
  }
}

/**
 * Waits until the phone host has reported each of `serials` and approves the ones still
 * pending (audited as the system). Rejects after `timeoutMs` naming the phones never reported.
 */
export async function approveSimPhones(
  adminDbFile: string,
  hostId: string,
  serials: readonly string[],
  opts: { timeoutMs: number; stopped: () => boolean },
): Promise<void> {
  const db = await openMigratedAdminDb(adminDbFile);
  try {
    const deadline = Date.now() + opts.timeoutMs;
    let approved: string[] = [];
    while (!opts.stopped()) {
      approved = await approveEmbeddedPhones(db, actor, hostId, serials);
      if (approved.length === serials.length) return;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    if (opts.stopped()) return;
    const missing = serials.filter((s) => !approved.includes(s));
    throw new Error(`the phone host never reported the simulator's phones ${missing.join(', ')}; see its log`);
  } finally {
    await db.destroy();
  }
}
