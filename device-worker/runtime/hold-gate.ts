import { askHolder } from '../admin-client';
import type { ActGate } from '../adb/adb-device';
import { DeviceError } from '../errors';

/**
 * No automated act while a person holds the phone from the admin (docs/api.md §12.3): before each
 * input and each opened link the worker asks the admin who holds the phone, so a hold taken
 * between two steps stops the flow before the next one, with its own reason and nothing tapped.
 * The one link still opened on a held phone is the purchase's read-only orders list: past the
 * irreversible mark a purchase only reconciles, and the purchase guard (pdd/purchase/guard.ts)
 * already refuses every other act there.
 */
export function holdGate(opts: {
  admin: { url: string; token: string } | undefined;
  deviceId: string;
  readOnlyUrls: ReadonlySet<string>;
}): ActGate | null {
  const { admin } = opts;
  if (!admin) return null; // a worker without an admin has no one to hand the phone to
  return async (act) => {
    if (act.kind === 'view' && opts.readOnlyUrls.has(act.url)) return;
    const holder = await askHolder({ adminUrl: admin.url, deviceId: opts.deviceId, token: admin.token });
    if (holder !== null)
      throw new DeviceError(
        'HELD_BY_OPERATOR',
        `${holder} holds this phone from the admin: ${act.kind === 'view' ? `opening ${act.url}` : act.command} refused`,
      );
  };
}
