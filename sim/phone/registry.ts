import { EventEmitter } from 'node:events';
import type { Catalog } from './catalog/schema';
import type { LatencyProfile } from './faults';
import { Phone } from './phone';

const DEFAULT_APP_VERSION = '8.17.0';

/** All phones of one simulator and the catalog they share; emits 'change' when the device list changes. */
export class Registry extends EventEmitter {
  readonly phones = new Map<string, Phone>();
  /** Phones whose cable was pulled: plugged in again, they come back as they were (app, orders, files). */
  private readonly unplugged = new Map<string, Phone>();
  private nextTransportId = 1;

  constructor(
    public catalog: Catalog,
    readonly defaultLatency: LatencyProfile,
  ) {
    super();
  }

  add(serial: string, appVersion = DEFAULT_APP_VERSION, plugged = false): Phone {
    if (this.phones.has(serial)) throw new Error(`device '${serial}' already exists`);
    const phone =
      this.unplugged.get(serial) ??
      new Phone(serial, appVersion, () => this.catalog, this.defaultLatency, this.nextTransportId++);
    if (!this.unplugged.delete(serial)) phone.on('online', () => this.emit('change'));
    if (plugged) phone.plugIn(phone.latency('settle'));
    this.phones.set(serial, phone);
    this.emit('change');
    return phone;
  }

  /** A phone plugged in while the simulator runs: `offline` in the device list until adbd is up. */
  plugIn(serial: string, appVersion?: string): Phone {
    return this.add(serial, appVersion, true);
  }

  remove(serial: string): boolean {
    const phone = this.phones.get(serial);
    if (!phone) return false;
    this.phones.delete(serial);
    this.unplugged.set(serial, phone);
    phone.unplug();
    this.emit('change');
    return true;
  }

  online(): Phone[] {
    return [...this.phones.values()].filter((p) => p.online);
  }
}
