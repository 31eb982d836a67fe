import { AdbServer, type Logger } from './adb/server';
import { defaultCatalog } from './catalog/default-catalog';
import { catalogSchema, type Catalog } from './catalog/schema';
import { ControlServer } from './control/server';
import type { LatencyProfile } from './faults';
import type { Phone } from './phone';
import { Registry } from './registry';

export type { Catalog, Goods } from './catalog/schema';
export type { Faults, LatencyProfile } from './faults';
export type { TapRecord } from './phone';
export type { Order } from './app/model';
export { defaultCatalog } from './catalog/default-catalog';
export interface PhoneSimOptions {
  /** 0 = pick a free port (the real one is returned). */
  adbPort: number;
  controlPort: number;
  /** Loopback by default: the sim has no authentication. */
  host?: string;
  phones?: string[];
  catalog?: Catalog;
  /** Latency profile for phones without a `latency` fault; default `zero`. */
  latency?: LatencyProfile;
  logger?: Logger;
}

export interface PhoneSim {
  adbPort: number;
  controlPort: number;
  host: string;
  /** Direct access for in-process tests; everything here is also reachable via the control API. */
  registry: Registry;
  phone(serial: string): Phone;
  addPhone(serial: string, appVersion?: string): Phone;
  setCatalog(catalog: Catalog): void;
  close(): Promise<void>;
}

export async function startPhoneSim(opts: PhoneSimOptions): Promise<PhoneSim> {
  const host = opts.host ?? '127.0.0.1';
  const registry = new Registry(catalogSchema.parse(opts.catalog ?? defaultCatalog()), opts.latency ?? 'zero');
  for (const serial of opts.phones ?? ['sim-phone-1', 'sim-phone-2']) registry.add(serial);
  const adb = new AdbServer(registry, opts.logger);
  const control = new ControlServer(registry);
  const adbPort = await adb.listen(opts.adbPort, host);
  let controlPort: number;
  try {
    controlPort = await control.listen(opts.controlPort, host);
  } catch (e) {
    await adb.close();
    throw e;
  }
  return {
    adbPort,
    controlPort,
    host,
    registry,
    phone(serial) {
      const p = registry.phones.get(serial);
      if (!p) throw new Error(`device '${serial}' not found`);
      return p;
    },
    addPhone: (serial, appVersion) => registry.add(serial, appVersion),
    setCatalog(catalog) {
      registry.catalog = catalogSchema.parse(catalog);
    },
    async close() {
      await Promise.all([adb.close(), control.close()]);
    },
  };
}
