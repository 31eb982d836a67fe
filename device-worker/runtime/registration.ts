import type { Logger } from '../../platform/logger';
import { AdbDevice, type AdbTarget, type AdbTimeouts } from '../adb/adb-device';
import { AdminClient, type DeviceRegistration, type PhoneHostSettings } from '../admin-client';
import { PDD_PACKAGE } from '../../domain/pdd-app';
import { SUPPORTED_APP_VERSIONS } from '../pdd/profile';

/**
 * What this worker can do, and `profile:<version>` for every PDD app version it has a page
 * profile of: the admin's release gate (设备 → 拼多多版本) shows which versions a worker knows.
 */
const CAPABILITIES = ['collect', 'device-check', 'purchase', ...SUPPORTED_APP_VERSIONS.map((v) => `profile:${v}`)];

export interface Registration {
  /** Fire and forget: reads the phone and reports it; the admin may be down, the client retries. */
  register(): void;
  stop(): void;
}

/**
 * Reporting this phone to the admin's 设备 page, at start and after every claim (the app may
 * have been updated in between). Without an admin URL and token the worker runs unregistered.
 */
export function createRegistration(opts: {
  admin: { url: string; token: string } | undefined;
  deviceId: string;
  adb: AdbTarget;
  adbTimeouts: Partial<AdbTimeouts> | undefined;
  log: Logger;
  onSettings: (settings: PhoneHostSettings) => void;
  /** the admin refused this device's token: stop taking claims */
  onRevoked: (why: string) => void;
}): Registration {
  const { admin } = opts;
  if (!admin) return { register: () => undefined, stop: () => undefined };
  const client = new AdminClient({
    adminUrl: admin.url,
    deviceId: opts.deviceId,
    token: admin.token,
    log: opts.log,
    onSettings: opts.onSettings,
    onRevoked: opts.onRevoked,
  });
  return {
    register() {
      // a short reconnect wait: an offline phone registers what is known instead of holding the report back
      void describePhone(new AdbDevice(opts.adb, { ...opts.adbTimeouts, reconnectMs: 2_000 })).then((reg) =>
        client.register(reg),
      );
    },
    stop: () => client.stop(),
  };
}

/** What the admin's 设备 page shows; a phone that is offline right now still registers. */
async function describePhone(adb: AdbDevice): Promise<DeviceRegistration> {
  let model = 'unknown';
  let appVersion = 'not installed';
  try {
    model = (await adb.getprop('ro.product.model')) || 'unknown';
    appVersion = (await adb.versionName(PDD_PACKAGE)) ?? 'not installed';
  } catch {
    // offline at the moment: register what we know, the next claim refreshes it
  }
  return { serial: adb.serial, model, app_version: appVersion, capabilities: CAPABILITIES };
}
