import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Counter, Gauge, Registry } from 'prom-client';
import type { HealthReading } from './probe';

/**
 * The host's one metrics endpoint (docs/phone-hosts.md "Metrics"): per-phone series carry a
 * `device` label (the device id), so one scrape target per host covers every phone on it.
 */
export class HostMetrics {
  readonly registry = new Registry();
  private readonly present = new Gauge({
    name: 'cmautobuy_host_phone_present',
    help: '1 while the phone is on ADB',
    labelNames: ['device'],
    registers: [this.registry],
  });
  private readonly battery = new Gauge({
    name: 'cmautobuy_host_phone_battery_percent',
    help: 'battery level',
    labelNames: ['device'],
    registers: [this.registry],
  });
  private readonly charging = new Gauge({
    name: 'cmautobuy_host_phone_charging',
    help: '1 while a charger is plugged in',
    labelNames: ['device'],
    registers: [this.registry],
  });
  private readonly screenOn = new Gauge({
    name: 'cmautobuy_host_phone_screen_usable',
    help: '1 while the screen is on and unlocked',
    labelNames: ['device'],
    registers: [this.registry],
  });
  private readonly storage = new Gauge({
    name: 'cmautobuy_host_phone_free_storage_mb',
    help: 'free space of /data',
    labelNames: ['device'],
    registers: [this.registry],
  });
  readonly workerRestarts = new Counter({
    name: 'cmautobuy_host_worker_restarts_total',
    help: 'device worker processes restarted after they died',
    labelNames: ['device'],
    registers: [this.registry],
  });
  private server: http.Server | undefined;

  setPresent(device: string, present: boolean): void {
    this.present.set({ device }, present ? 1 : 0);
  }

  setHealth(device: string, h: HealthReading): void {
    this.battery.set({ device }, h.battery_level);
    this.charging.set({ device }, h.charging ? 1 : 0);
    this.screenOn.set({ device }, h.screen === 'on' ? 1 : 0);
    this.storage.set({ device }, h.free_storage_mb);
  }

  /** Serves `/metrics`; answers the `host:port` Prometheus should scrape. */
  async listen(host: string, port: number): Promise<string> {
    this.server = http.createServer((req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, resolve);
    });
    const bound = (this.server.address() as AddressInfo).port;
    const shown = host === '0.0.0.0' || host === '::' ? os.hostname() : host;
    return `${shown.includes(':') ? `[${shown}]` : shown}:${bound}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
