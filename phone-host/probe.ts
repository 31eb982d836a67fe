import Adb from '@devicefarmer/adbkit';
import { PDD_PACKAGE } from '../domain/pdd-app';
import { parseVersionName } from '../device-worker/adb/output';
import { NO_ADB_SERVER_START } from '../device-worker/adb/client-options';
import { readHealthWith, type HealthReading } from '../device-worker/adb/health-reading';

type AdbClient = ReturnType<typeof Adb.createClient>;

export function adbClient(adb: { host: string; port: number }): AdbClient {
  return Adb.createClient({ host: adb.host, port: adb.port, ...NO_ADB_SERVER_START });
}

async function shell(client: AdbClient, serial: string, command: string, timeoutMs = 10_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      (async () => (await Adb.util.readAll(await client.getDevice(serial).shell(command))).toString('utf8'))(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`adb shell ${command}: no answer in ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface PhoneProbe {
  serial: string;
  model: string;
  android_version: string;
  app_version: string;
  /** the handset's own serial: the same over USB and over Wi-Fi (`ip:port`); null when it cannot be read */
  hardware_serial: string | null;
}

/** A serial as a property gives it: one plain token, else none (`unknown` is what an unset one reads on some phones). */
function plainSerial(raw: string): string | null {
  const s = raw.trim();
  return /^[A-Za-z0-9._-]{1,64}$/.test(s) && s.toLowerCase() !== 'unknown' ? s : null;
}

/** What the admin shows of a new phone before it is approved, and what makes it one handset. */
export async function probePhone(client: AdbClient, serial: string): Promise<PhoneProbe> {
  const model = (await shell(client, serial, 'getprop ro.product.model')).trim() || 'unknown';
  const android = (await shell(client, serial, 'getprop ro.build.version.release')).trim() || 'unknown';
  const pdd = parseVersionName(await shell(client, serial, `dumpsys package ${PDD_PACKAGE}`), PDD_PACKAGE);
  const hardware =
    plainSerial(await shell(client, serial, 'getprop ro.serialno')) ??
    plainSerial(await shell(client, serial, 'getprop ro.boot.serialno'));
  return { serial, model, android_version: android, app_version: pdd ?? 'not-installed', hardware_serial: hardware };
}

export type { HealthReading } from '../device-worker/adb/health-reading';

/** One reading of battery, screen, storage and the PDD version; null when any part cannot be read. */
export function readHealth(client: AdbClient, serial: string): Promise<HealthReading | null> {
  return readHealthWith((command) => shell(client, serial, command));
}
