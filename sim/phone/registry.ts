import { EventEmitter } from 'node:events';
import type { Catalog } from './catalog/schema';
import type { LatencyProfile } from './faults';
import { Phone } from './phone';

const DEFAULT_APP_VERSION = '8.17.0';

/** All phones of one simulator and the catalog they share; emits 'change' when the device list changes. */
export class Registry extends EventEmitter {
  readonly phones = new Map<string, Phone>();
  private nextTransportId = 1;

  constructor(
    public catalog: Catalog,
    readonly defaultLatency: LatencyProfile,
  ) {
    super();
  }

  add(serial: string, appVersion = DEFAULT_APP_VERSION): Phone {
    if (this.phones.has(serial)) throw new Error(`device '${serial}' already exists`);
    const phone = new Phone(serial, appVersion, () => this.catalog, this.defaultLatency, this.nextTransportId++);
    phone.on('online', () => this.emit('change'));
    this.phones.set(serial, phone);
    this.emit('change');
    return phone;
  }

  remove(serial: string): boolean {
    const ok = this.phones.delete(serial);
    if (ok) this.emit('change');
    return ok;
  }

  online(): Phone[] {
    return [...this.phones.values()].filter((p) => p.online);
  }
}
