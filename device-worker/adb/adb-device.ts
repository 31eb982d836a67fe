import type { Duplex, Readable } from 'node:stream';
import Adb, { type Device } from '@devicefarmer/adbkit';
import { describeError } from '../../platform/errors';
import { DeviceError } from '../errors';
import { describeAdbError, NO_ADB_SERVER_START } from './client-options';
import {
  amStartError,
  isInjectEventsDenied,
  parseVersionName,
  parseWmSize,
  splitUiDump,
  type UiDumpOutput,
} from './output';
import { withPhoneLock } from './serial-lock';

/** Asked before each act on the phone; throws to refuse it (AdbDevice.gateActs). */
export type ActGate = (act: { kind: 'input'; command: string } | { kind: 'view'; url: string }) => Promise<void>;

/** The node a tap means, as the dump it was read from numbers it. */
export interface TapTarget {
  /** the node's position in that dump's document order */
  order: number;
  className: string;
  bounds: { left: number; top: number; right: number; bottom: number };
  /** what it is, for logs */
  label: string;
}

export interface AdbTarget {
  host: string;
  port: number;
  serial: string;
}

export interface AdbTimeouts {
  /** any plain shell command (getprop, input, dumpsys) */
  shellMs: number;
  /** uiautomator waits for 1 s of idle and gives up after 10 s on a real phone */
  dumpMs: number;
  screencapMs: number;
  /** how long a command waits for a phone that dropped off ADB to come back */
  reconnectMs: number;
}

const DEFAULT_TIMEOUTS: AdbTimeouts = { shellMs: 10_000, dumpMs: 20_000, screencapMs: 15_000, reconnectMs: 10_000 };

/**
 * Another way to read the screen's hierarchy than `uiautomator dump` (the on-device agent,
 * ../agent/phone-agent.ts). Asked before every read; a source that is not ready, or whose read
 * fails, leaves that read to `uiautomator dump`.
 */
export interface HierarchySource {
  ready(): boolean;
  /** the hierarchy as XML; throws when the source could not read it */
  read(): Promise<string>;
  /** a read failed: the source decides whether it is still ready, and frees the phone for a dump */
  failed(err: unknown): Promise<void>;
}

/** Called once per ADB round trip (every new TCP conversation with the ADB server). */
export type RoundTripObserver = () => void;

type AdbClient = ReturnType<typeof Adb.createClient>;

const SERIAL_RE = /^[A-Za-z0-9._:-]+$/;

/**
 * A thin wrapper over adbkit for exactly one phone. The serial is always explicit: there is
 * no `transport-any` and a serial the server lists zero or several times is refused, so a
 * command can never land on the wrong phone. Commands are serialised per phone, each has its
 * own timeout, and a phone that drops off ADB is waited for (bounded) before the next one.
 */
export class AdbDevice {
  private readonly client: AdbClient;
  private readonly lockKey: string;
  private online = false;
  private hierarchy: HierarchySource | null = null;
  private actGate: ActGate | null = null;
  readonly timeouts: AdbTimeouts;

  constructor(
    readonly target: AdbTarget,
    timeouts: Partial<AdbTimeouts> = {},
    private observer: RoundTripObserver = () => {},
  ) {
    if (!target.serial || !SERIAL_RE.test(target.serial)) {
      throw new DeviceError(
        'ADB_SERIAL_INVALID',
        `an explicit ADB serial is required (got ${JSON.stringify(target.serial ?? '')})`,
      );
    }
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...timeouts };
    // never `adb start-server` on a refused connection: it reports ADB_DISCONNECTED instead
    this.client = Adb.createClient({ host: target.host, port: target.port, ...NO_ADB_SERVER_START });
    this.lockKey = `${target.host}:${target.port}/${target.serial}`;
  }

  get serial(): string {
    return this.target.serial;
  }

  /** Counts the round trips of one activity into its own counters. */
  observe(observer: RoundTripObserver): void {
    this.observer = observer;
  }

  /**
   * Waits (bounded) until the server lists the serial exactly once in state `device`.
   * Zero times → ADB_DISCONNECTED (retryable: cables and Wi-Fi come back); twice → refused.
   */
  async ensureOnline(waitMs = this.timeouts.reconnectMs): Promise<void> {
    const deadline = Date.now() + waitMs;
    let last: string;
    for (;;) {
      try {
        this.observer();
        const devices: Device[] = await withTimeout(
          Promise.resolve(this.client.listDevices()),
          this.timeouts.shellMs,
          'host:devices',
        );
        const mine = devices.filter((d) => d.id === this.serial);
        if (mine.length > 1)
          throw new DeviceError(
            'ADB_SERIAL_INVALID',
            `serial ${this.serial} is listed ${mine.length} times by the ADB server: ambiguous, refusing`,
          );
        if (mine[0]?.type === 'device') {
          this.online = true;
          return;
        }
        last = mine[0] ? `state ${mine[0].type}` : 'not listed';
      } catch (err) {
        if (err instanceof DeviceError && err.code === 'ADB_SERIAL_INVALID') throw err;
        last = describeAdbError(err, describeError(err));
      }
      if (Date.now() >= deadline) {
        this.online = false;
        throw new DeviceError(
          'ADB_DISCONNECTED',
          `phone ${this.serial} is not available on ADB ${this.target.host}:${this.target.port} (${last})`,
        );
      }
      await sleep(Math.min(500, Math.max(0, deadline - Date.now())));
    }
  }

  /** One shell command, its output as text (stdout and stderr merged, no exit code). */
  async shell(command: string, timeoutMs = this.timeouts.shellMs): Promise<string> {
    const buf = await this.run(command, timeoutMs, async (device) => device.shell(command));
    return buf.toString('utf8');
  }

  /** Reads the screen through `source` from now on, while it is ready; null: `uiautomator dump` only. */
  readHierarchyFrom(source: HierarchySource | null): this {
    this.hierarchy = source;
    return this;
  }

  /**
   * Asks `gate` before every input and every opened link; it throws to refuse the act (a person
   * holds the phone from the admin: device-worker/runtime/hold-gate.ts). Reads are never gated.
   */
  gateActs(gate: ActGate | null): this {
    this.actGate = gate;
    return this;
  }

  /** Which channel the next read takes. */
  get hierarchyChannel(): 'agent' | 'dump' {
    return this.hierarchy?.ready() ? 'agent' : 'dump';
  }

  /**
   * The screen's hierarchy: through the agent while it is ready (it answers with the current
   * tree even on a screen that never goes idle), otherwise `uiautomator dump`. An agent read that
   * fails costs that read a dump, never a decision on an older tree.
   */
  async dumpUi(): Promise<UiDumpOutput> {
    const source = this.hierarchy;
    if (source?.ready()) {
      try {
        return splitUiDump(await source.read());
      } catch (err) {
        await source.failed(err);
      }
    }
    return splitUiDump(await this.shell('uiautomator dump /dev/tty', this.timeouts.dumpMs));
  }

  /** `adb push`: `contents` to `remotePath` on the phone, bounded by `timeoutMs`. */
  async push(contents: Readable, remotePath: string, timeoutMs: number): Promise<void> {
    await this.exchange(`push ${remotePath}`, timeoutMs, async (device) => {
      const transfer = await device.push(contents, remotePath, 0o644);
      await new Promise<void>((resolve, reject) => {
        transfer.on('end', resolve);
        transfer.on('error', reject);
      });
    });
  }

  /** `adb forward tcp:<local> tcp:<remote>` (the listener is on the ADB server's machine). */
  async forward(localPort: number, remotePort: number): Promise<void> {
    await this.exchange(`forward tcp:${localPort}`, this.timeouts.shellMs, (device) =>
      device.forward(`tcp:${int(localPort)}`, `tcp:${int(remotePort)}`),
    );
  }

  /**
   * A shell command that runs for as long as it likes (`am instrument -w`): the stream is handed
   * back once open, and ends when the command does. Only opening it is bounded.
   */
  holdShell(command: string): Promise<Duplex> {
    return this.exchange(command, this.timeouts.shellMs, (device) => device.shell(command));
  }

  /** A connection to a socket on the phone (`localabstract:minicap`), open until either side ends it. Only opening it is bounded. */
  openLocal(socket: string): Promise<Duplex> {
    return this.exchange(`open ${socket}`, this.timeouts.shellMs, (device) => device.openLocal(socket));
  }

  async screencap(): Promise<Buffer> {
    return this.run('screencap', this.timeouts.screencapMs, (device) => device.screencap());
  }

  /** `target` names the node the tap means; ADB ignores it, the purchase guard checks it (pdd/purchase/guard.ts). */
  async tap(x: number, y: number, target?: TapTarget): Promise<void> {
    void target;
    await this.input(`input tap ${int(x)} ${int(y)}`);
  }

  async swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number): Promise<void> {
    await this.input(`input swipe ${int(x1)} ${int(y1)} ${int(x2)} ${int(y2)} ${int(durationMs)}`);
  }

  async keyevent(code: number): Promise<void> {
    await this.input(`input keyevent ${int(code)}`);
  }

  async startView(url: string): Promise<void> {
    await this.actGate?.({ kind: 'view', url });
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s'"`$\\;&|<>()]+$/.test(url))
      throw new DeviceError('INVALID_INPUT', `refusing to open ${JSON.stringify(url)}`);
    const out = await this.shell(`am start -a android.intent.action.VIEW -d '${url}'`);
    const err = amStartError(out);
    if (err) throw new DeviceError('APP_NOT_INSTALLED', `the phone could not open ${url}: ${err}`);
  }

  async versionName(pkg: string): Promise<string | null> {
    return parseVersionName(await this.shell(`dumpsys package ${pkg}`), pkg);
  }

  async screenSize(): Promise<{ width: number; height: number } | null> {
    return parseWmSize(await this.shell('wm size'));
  }

  async getprop(key: string): Promise<string> {
    return (await this.shell(`getprop ${key}`)).trim();
  }

  private async input(command: string): Promise<void> {
    await this.actGate?.({ kind: 'input', command });
    const out = await this.shell(command);
    if (isInjectEventsDenied(out)) {
      throw new DeviceError(
        'INJECT_EVENTS_DENIED',
        `the phone refused injected input (SecurityException … INJECT_EVENTS) for "${command}"; enable USB debugging (Security settings) on the phone`,
      );
    }
  }

  /** One command that reads its whole answer (shell, screencap), bounded by `timeoutMs`. */
  private run(
    label: string,
    timeoutMs: number,
    call: (device: ReturnType<AdbClient['getDevice']>) => PromiseLike<Duplex>,
  ): Promise<Buffer> {
    let stream: Duplex | undefined;
    return this.exchange(
      label,
      timeoutMs,
      async (device) => {
        stream = await call(device);
        return Adb.util.readAll(stream);
      },
      () => stream?.destroy(),
    );
  }

  /** One exchange with the phone: serialised per phone, online first, bounded, its error classified. */
  private exchange<T>(
    label: string,
    timeoutMs: number,
    call: (device: ReturnType<AdbClient['getDevice']>) => PromiseLike<T>,
    abandon: () => void = () => undefined,
  ): Promise<T> {
    return withPhoneLock(this.lockKey, async () => {
      if (!this.online) await this.ensureOnline();
      this.observer();
      try {
        return await withTimeout(Promise.resolve(call(this.client.getDevice(this.serial))), timeoutMs, label);
      } catch (err) {
        abandon();
        throw this.classify(err, label);
      }
    });
  }

  private classify(err: unknown, label: string): DeviceError {
    if (err instanceof DeviceError) {
      if (err.code === 'ADB_TIMEOUT') this.online = false;
      return err;
    }
    const message = describeAdbError(err, describeError(err));
    if (/not found|offline|ECONNREFUSED|connection refused|ECONNRESET|EPIPE|closed|no devices/i.test(message)) {
      this.online = false;
      return new DeviceError('ADB_DISCONNECTED', `phone ${this.serial}: ${label} failed: ${message}`);
    }
    if (/more than one/i.test(message)) return new DeviceError('ADB_SERIAL_INVALID', message);
    return new DeviceError('ADB_FAILED', `phone ${this.serial}: ${label} failed: ${message}`);
  }
}

function int(n: number): number {
  if (!Number.isFinite(n)) throw new DeviceError('INVALID_INPUT', `not a coordinate: ${n}`);
  return Math.round(n);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function withTimeout<T>(p: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DeviceError('ADB_TIMEOUT', `${label} took longer than ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
