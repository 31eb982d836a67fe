import { EventEmitter } from 'node:events';
import type { Catalog } from './catalog/schema';
import { PddApp } from './app/model';
import type { UiNode } from './app/node';
import { faultsSchema, type Faults, type LatencyProfile } from './faults';
import { DEFAULT_HEALTH, healthPatchSchema, keyguardShowing, type Health } from './health';
import { keyguardScreen, screenOffScreen } from './app/screens/system';
import { latencyMs, makeRng, sleep, type LatencyKind } from './latency';
import { Agent } from './agent/state';
import { SCREEN_H, SCREEN_W } from './app/screens/common';
import { AbstractSockets } from './screen/abstract-sockets';
import { Processes } from './shell/process-table';

interface NodeInfo {
  text: string;
  resource_id: string;
  class: string;
  content_desc: string;
}

export interface TapRecord {
  at: string;
  x: number;
  y: number;
  node: NodeInfo | null;
  target: NodeInfo | null;
  screen: string;
  overlay: string | null;
  overlay_action: string | null;
}

export interface SimFile {
  data: Buffer;
  mtime: number;
  /** permission bits (`chmod`, or the mode `adb push` sent); 0o644 when unset */
  mode?: number;
}

/** One `input text` the app received, as the keyboard in use committed it. */
export interface TypedRecord {
  at: string;
  text: string;
  /** the input method that turned the keys into text (`ime set`) */
  ime: string;
}

function info(n: UiNode | null): NodeInfo | null {
  return n ? { text: n.text, resource_id: n.id, class: n.cls, content_desc: n.desc } : null;
}

let seedCounter = 1;

/** One simulated phone: its own serial, app state, files, order book, tap log and faults. */
export class Phone extends EventEmitter {
  readonly app: PddApp;
  readonly files = new Map<string, SimFile>();
  /** `settings` values put since the last reset, by `namespace/name`; null: deleted (shell/settings.ts) */
  readonly settings = new Map<string, string | null>();
  readonly taps: TapRecord[] = [];
  /** the UiAutomator2 server's packages and process (agent/) */
  readonly agent = new Agent();
  /** programs a shell started that outlive their command (minicap) */
  readonly processes = new Processes();
  /** the abstract sockets those programs listen on (`localabstract:minicap`) */
  readonly abstractSockets = new AbstractSockets();
  readonly typed: TypedRecord[] = [];
  /** what `wm size` says; minicap's real size */
  readonly screenSize = { width: SCREEN_W, height: SCREEN_H } as const;
  faults: Faults = {};
  health: Health = { ...DEFAULT_HEALTH };
  online = true;
  /** Just plugged in: listed as `offline` until adbd is up (sim/phone/SCREENS.md "Plugging"). */
  booting = false;
  private commandsSinceFaults = 0;
  private random: () => number;
  readonly transportId: number;

  constructor(
    readonly serial: string,
    private baseAppVersion: string,
    private readonly catalogRef: () => Catalog,
    private readonly defaultLatency: LatencyProfile,
    transportId: number,
  ) {
    super();
    this.transportId = transportId;
    this.random = makeRng(seedCounter++ * 7919);
    this.app = new PddApp({
      catalog: () => this.catalogRef(),
      faults: () => this.faults,
      now: () => Date.now(),
      random: () => this.random(),
      settleMs: () => this.latency('settle'),
      loadingIsTimed: () => this.latencyProfile === 'realistic',
    });
  }

  get appVersion(): string {
    return this.faults.app_version ?? this.baseAppVersion;
  }

  /** what `getprop ro.serialno` reads: the handset's serial, the same over USB and over Wi-Fi */
  get hardwareSerial(): string {
    return this.faults.hardware_serial ?? this.serial;
  }

  get latencyProfile(): LatencyProfile {
    return this.faults.latency ?? this.defaultLatency;
  }

  latency(kind: LatencyKind): number {
    return latencyMs(this.latencyProfile, kind, () => this.random());
  }

  delay(kind: LatencyKind): Promise<void> {
    return sleep(this.latency(kind));
  }

  setFaults(input: unknown): Faults {
    const faults = faultsSchema.parse(input);
    this.faults = faults;
    this.commandsSinceFaults = 0;
    if (faults.seed !== undefined) this.random = makeRng(faults.seed);
    this.app.resetFaultState();
    if (faults.no_agent) this.agent.stop();
    this.setOnline(faults.disconnect_after_commands !== 0);
    return faults;
  }

  clearFaults(): void {
    this.faults = {};
    this.commandsSinceFaults = 0;
    this.app.resetFaultState();
    this.setOnline(true);
  }

  reset(): void {
    this.app.reset();
    this.taps.length = 0;
    this.typed.length = 0;
    this.processes.stopAll();
    this.files.clear();
    this.settings.clear();
    this.agent.reset();
    this.health = { ...DEFAULT_HEALTH };
    this.clearFaults();
  }

  setHealth(input: unknown): Health {
    this.health = { ...this.health, ...healthPatchSchema.parse(input) };
    return this.health;
  }

  /** What the display shows instead of the app while it is off or the keyguard is up, else null. */
  systemTree(): UiNode | null {
    if (this.health.screen === 'off') return screenOffScreen();
    return keyguardShowing(this.health) ? keyguardScreen(Date.now()) : null;
  }

  /** The cable is pulled: the phone leaves every list and its open connections fail. */
  unplug(): void {
    this.booting = false;
    this.setOnline(false);
  }

  /** The cable goes in: `offline` first, `device` once adbd answers. */
  plugIn(bootMs: number): void {
    this.booting = true;
    this.online = true;
    setTimeout(() => {
      this.booting = false;
      this.emit('online', true);
    }, bootMs).unref();
  }

  private setOnline(v: boolean): void {
    if (this.online === v) return;
    this.online = v;
    if (!v) {
      this.agent.stop();
      this.processes.stopAll();
    }
    this.emit('online', v);
  }

  /** Counts a shell/sync command towards `disconnect_after_commands`; the phone drops after it. */
  countCommand(): void {
    const limit = this.faults.disconnect_after_commands;
    if (limit === undefined) return;
    this.commandsSinceFaults += 1;
    if (this.commandsSinceFaults >= limit) this.setOnline(false);
  }

  /** `input text` once the keyboard turned it into text; the keyguard takes keys as it takes taps. */
  type(text: string, ime: string): void {
    if (this.systemTree()) return;
    this.typed.push({ at: new Date().toISOString(), text, ime });
    this.app.typeText(text);
  }

  tap(x: number, y: number): void {
    const system = this.systemTree();
    if (system) {
      // The lock screen or a dark display takes the touch; the app never sees it.
      const screen = this.health.screen === 'off' ? 'screen_off' : 'keyguard';
      this.taps.push({
        at: new Date().toISOString(),
        x,
        y,
        node: null,
        target: null,
        screen,
        overlay: null,
        overlay_action: null,
      });
      return;
    }
    const r = this.app.tap(x, y);
    this.taps.push({
      at: new Date().toISOString(),
      x,
      y,
      node: info(r.deepest),
      target: info(r.target),
      screen: r.screen,
      overlay: r.overlay,
      overlay_action: r.overlay_action,
    });
  }
}
