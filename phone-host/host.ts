import type { Device } from '@devicefarmer/adbkit';
import type { Logger } from '../platform/logger';
import { describeAdbError } from '../device-worker/adb/client-options';
import { describeError } from '../platform/errors';
import type { SupervisedChild } from '../platform/children';
import { HostClient, HostRequestRefused, HostUnauthorized, type HostPhone, type MetricsAddress } from './host-client';
import type { HostMetrics } from './metrics';
import { adbClient, probePhone, readHealth } from './probe';
import { startPhoneWorker } from './workers';
import { AdminChannel } from './admin-channel';
import { formatPayloadKeys } from '../temporal/codec/keys-handoff';
import type { PayloadKeyRing } from '../temporal/codec/keys';

/** workflows/phone.ts DEVICE_HEARTBEAT_TIMEOUT */
const WORKER_STOP_GRACE_MS = 30_000;

interface Phone {
  serial: string;
  /** on ADB in state `device` now */
  present: boolean;
  known: HostPhone | null;
  worker: SupervisedChild | null;
  /** a worker start or stop under way */
  busy: boolean;
}

export interface PhoneHostOptions {
  adminUrl: string;
  hostId: string;
  token: string;
  adb: { host: string; port: number };
  dataDir: string;
  log: Logger;
  metrics: HostMetrics;
  metricsTarget: string | null;
  /** how often the host asks the admin about its phones (approvals, revocations) */
  syncMs: number;
  /** how often each phone's health is read */
  healthMs: number;
  /** on top of this process's CMAUTOBUY_* settings, for every worker (tests: their Temporal namespace); never the payload keys */
  workerEnv?: NodeJS.ProcessEnv;
}

/**
 * One phone host (docs/phone-hosts.md): watches the ADB server, reports every phone that
 * appears to the admin as a pending phone of this host, and runs the device worker of each
 * approved phone that is plugged in. A phone that leaves ADB has its worker stopped (it drains
 * what it holds) and shows 离线; when it comes back its worker starts again with a fresh token —
 * the approval stays.
 */
export class PhoneHost {
  private readonly phones = new Map<string, Phone>();
  private readonly client;
  private readonly admin: HostClient;
  private tracker: { end(): void } | null = null;
  private timers: NodeJS.Timeout[] = [];
  private syncing: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** what the heartbeat tells the admin about this host's metrics; narrowed when the admin refuses it */
  private metricsAddress: MetricsAddress;
  /** the outward channel the admin's live screens and a person's input come down */
  private readonly channel: AdminChannel;
  /**
   * The admin's payload keys as its channel last sent them, in memory only. Until they come no
   * worker starts: one without them would write payloads in clear or under a key of its own.
   */
  private payloadKeys: string | null = null;

  constructor(private readonly opts: PhoneHostOptions) {
    this.client = adbClient(opts.adb);
    this.admin = new HostClient(opts.adminUrl, opts.hostId, opts.token);
    this.metricsAddress = opts.metricsTarget === null ? null : { metrics_target: opts.metricsTarget };
    this.channel = new AdminChannel({
      adminUrl: opts.adminUrl,
      hostId: opts.hostId,
      token: opts.token,
      adb: opts.adb,
      log: opts.log.child({ part: 'admin-channel' }),
      serialOf: (deviceId) => {
        for (const p of this.phones.values())
          if (p.present && p.known?.device_id === deviceId && p.known.state === 'active') return p.serial;
        return null;
      },
      onPayloadKeys: (ring) => void this.receiveKeys(ring),
    });
  }

  async start(): Promise<void> {
    // first: the payload keys come down it, and no worker starts before them
    this.channel.start();
    await this.watchAdb();
    this.timers.push(setInterval(() => void this.sync(), this.opts.syncMs));
    this.timers.push(setInterval(() => void this.checkHealth(), this.opts.healthMs));
    await this.sync();
    void this.checkHealth();
  }

  /** Whether the admin's payload keys are here (tests, the log). */
  hasPayloadKeys(): boolean {
    return this.payloadKeys !== null;
  }

  /**
   * The keys of each channel the admin accepts. A ring that changed (the admin restarted with a
   * rotated one) restarts every worker with it: each drains what it holds first.
   */
  private async receiveKeys(ring: PayloadKeyRing): Promise<void> {
    const text = formatPayloadKeys(ring);
    if (text === this.payloadKeys) return;
    const first = this.payloadKeys === null;
    this.payloadKeys = text;
    this.opts.log.info({ encrypt_key_id: ring.encryptKeyId, keys: ring.keys.size }, 'payload keys from the admin');
    if (!first) {
      this.opts.log.warn('the admin sent other payload keys: restarting every device worker with them');
      await Promise.all([...this.phones.values()].map((p) => this.stopWorker(p)));
    }
    await this.sync();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Ctrl-C reaches the workers too: their exit from now on is no crash to restart
    for (const p of this.phones.values()) p.worker?.standDown();
    for (const t of this.timers) clearInterval(t);
    this.tracker?.end();
    await this.channel.stop();
    await this.syncing?.catch(() => undefined);
    await Promise.all([...this.phones.values()].map((p) => this.stopWorker(p)));
  }

  /** What the host sees now, for tests and the log. */
  snapshot(): Array<{ serial: string; present: boolean; state: string | null; worker_pid: number | null }> {
    return [...this.phones.values()].map((p) => ({
      serial: p.serial,
      present: p.present,
      state: p.known?.state ?? null,
      worker_pid: p.worker?.pid ?? null,
    }));
  }

  private phone(serial: string): Phone {
    let p = this.phones.get(serial);
    if (!p) {
      p = { serial, present: false, known: null, worker: null, busy: false };
      this.phones.set(serial, p);
    }
    return p;
  }

  /** `host:track-devices`; a tracker that ends (ADB server restarted) is opened again. */
  private async watchAdb(): Promise<void> {
    const seen = (serial: string, type: string) => {
      const p = this.phone(serial);
      const present = type === 'device';
      if (p.present !== present) {
        p.present = present;
        this.opts.log.info({ serial, type }, present ? 'phone on ADB' : 'phone left ADB');
        void this.sync();
      }
    };
    try {
      for (const d of await this.client.listDevices()) seen(d.id, d.type);
      const tracker = await this.client.trackDevices();
      this.tracker = tracker;
      tracker.on('add', (d: Device) => seen(d.id, d.type));
      tracker.on('change', (d: Device) => seen(d.id, d.type));
      tracker.on('remove', (d: Device) => seen(d.id, 'gone'));
      tracker.on('end', () => this.reopenAdb('tracker ended'));
      tracker.on('error', (err: Error) => this.reopenAdb(describeError(err)));
    } catch (err) {
      this.reopenAdb(describeAdbError(err, describeError(err)));
    }
  }

  private reopenAdb(why: string): void {
    if (this.stopped) return;
    this.opts.log.warn({ why, adb: this.opts.adb }, 'ADB server not watched; trying again shortly');
    this.tracker = null;
    for (const p of this.phones.values()) p.present = false;
    void this.sync();
    setTimeout(() => void (this.stopped || this.tracker ? undefined : this.watchAdb()), 2_000).unref();
  }

  /** One round with the admin; rounds never overlap, and a request during one runs one more after it. */
  sync(): Promise<void> {
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.again = false;
        await this.syncOnce().catch((err: unknown) => this.onAdminError(err));
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async onAdminError(err: unknown): Promise<void> {
    if (err instanceof HostUnauthorized) {
      this.opts.log.error({ err: err.message }, 'host credential refused: stopping every phone worker');
      await Promise.all([...this.phones.values()].map((p) => this.stopWorker(p)));
      return;
    }
    this.opts.log.warn({ err: describeError(err), admin: this.opts.adminUrl }, 'admin round failed; trying again');
  }

  private async syncOnce(): Promise<void> {
    if (this.stopped) return;
    const present = [...this.phones.values()].filter((p) => p.present);
    for (const p of present) {
      if (p.known) continue;
      const info = await probePhone(this.client, p.serial).catch((err: unknown) => {
        this.opts.log.warn({ serial: p.serial, err: describeError(err) }, 'could not read the phone yet');
        return null;
      });
      if (info) {
        try {
          p.known = await this.admin.reportPhone(info);
        } catch (err) {
          // one phone the admin will not take (too many waiting, an odd serial) holds back no other
          if (!(err instanceof HostRequestRefused)) throw err;
          this.opts.log.warn({ serial: p.serial, code: err.code, err: err.message }, 'the admin refused this phone');
          continue;
        }
        this.opts.log.info({ serial: p.serial, device_id: p.known.device_id, state: p.known.state }, 'phone reported');
      }
    }
    const { phones } = await this.heartbeat(present.map((p) => p.serial));
    for (const k of phones) {
      const p = this.phones.get(k.serial);
      if (p) p.known = k;
    }
    for (const p of this.phones.values()) {
      this.opts.metrics.setPresent(p.known?.device_id ?? p.serial, p.present);
      const run = p.present && p.known?.state === 'active';
      if (run && !p.worker) await this.startWorker(p);
      else if (!run && p.worker) await this.stopWorker(p);
    }
  }

  /**
   * A metrics target the admin refuses (docs/phone-hosts.md "Metrics") falls back to its port at
   * the address the admin sees this host connect from, then to none: the phones keep running.
   */
  private async heartbeat(present: string[]): Promise<{ phones: HostPhone[] }> {
    for (;;) {
      try {
        return await this.admin.heartbeat(this.metricsAddress, present);
      } catch (err) {
        if (
          !(err instanceof HostRequestRefused) ||
          err.code !== 'METRICS_TARGET_REFUSED' ||
          this.metricsAddress === null
        )
          throw err;
        const port =
          'metrics_target' in this.metricsAddress
            ? Number(/:(\d+)$/.exec(this.metricsAddress.metrics_target)?.[1])
            : NaN;
        this.metricsAddress = Number.isInteger(port) && port > 0 ? { metrics_port: port } : null;
        this.opts.log.warn({ err: err.message, now: this.metricsAddress }, 'the admin refused the metrics address');
      }
    }
  }

  private async startWorker(p: Phone): Promise<void> {
    if (p.busy || !p.known || this.stopped) return;
    const payloadKeys = this.payloadKeys;
    if (payloadKeys === null) {
      this.opts.log.info({ serial: p.serial }, 'device worker waits for the payload keys from the admin channel');
      return;
    }
    p.busy = true;
    try {
      const token = await this.admin.phoneToken(p.known.device_id);
      const deviceId = p.known.device_id;
      p.worker = await startPhoneWorker(
        {
          adminUrl: this.opts.adminUrl,
          adb: this.opts.adb,
          dataDir: this.opts.dataDir,
          env: this.opts.workerEnv ?? {},
          payloadKeys,
          onRestart: (event) => {
            this.opts.metrics.workerRestarts.inc({ device: deviceId });
            this.opts.log.warn(event, 'device worker restarted');
          },
        },
        { deviceId, serial: p.serial, token },
      );
      this.opts.log.info({ serial: p.serial, device_id: deviceId, pid: p.worker.pid }, 'device worker running');
    } catch (err) {
      if (err instanceof HostUnauthorized) throw err;
      this.opts.log.warn(
        { serial: p.serial, err: describeError(err) },
        'device worker did not start; next round retries',
      );
    } finally {
      p.busy = false;
    }
  }

  private async stopWorker(p: Phone): Promise<void> {
    const w = p.worker;
    if (!w) return;
    p.worker = null;
    this.opts.log.info({ serial: p.serial }, 'stopping the device worker (phone gone, revoked or host stopping)');
    // the worker finishes its claim within its own grace time; SIGKILL only after the claim's
    // heartbeat timeout, when Temporal has given the claim up anyway
    await w.stop(WORKER_STOP_GRACE_MS);
  }

  private async checkHealth(): Promise<void> {
    for (const p of this.phones.values()) {
      if (!p.present || !p.known || p.known.state === 'revoked' || this.stopped) continue;
      try {
        const h = await readHealth(this.client, p.serial);
        if (!h) continue;
        this.opts.metrics.setHealth(p.known.device_id, h);
        await this.admin.reportHealth(p.known.device_id, h);
      } catch (err) {
        this.opts.log.warn({ serial: p.serial, err: describeError(err) }, 'health reading failed');
      }
    }
  }
}
