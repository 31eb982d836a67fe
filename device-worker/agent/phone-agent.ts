import fs from 'node:fs';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { agentReasonText, type PhoneAgentReport } from '../../domain/phone-agent';
import { describeError } from '../../platform/errors';
import { freePort, isLoopbackHost } from '../../platform/network';
import type { Logger } from '../../platform/logger';
import type { AdbDevice, HierarchySource } from '../adb/adb-device';
import { parseVersionName } from '../adb/output';
import { isDeviceError } from '../errors';
import { AgentClient, type AgentClientTimeouts } from './client';
import {
  AGENT_MIN_SDK,
  AGENT_PACKAGE,
  AGENT_PORT,
  AGENT_RUNNER,
  AGENT_TEST_PACKAGE,
  AgentError,
  agentApks,
  type AgentApks,
} from './package';

export interface PhoneAgentOptions {
  /**
   * its own connection to the phone, but the phone lock (adb/serial-lock.ts) still queues its
   * commands with a purchase's: a push holds the phone for as long as it takes
   */
  adb: AdbDevice;
  log: Logger;
  /** how long a started agent has to say it is ready; default 30 s (a real one takes 3–10 s) */
  startWaitMs?: number;
  /** after a start that failed, how long until the next try; default 60 s */
  retryMs?: number;
  /** how long one APK push and install may take; default 120 s (the server APK is ~18 MB) */
  installMs?: number;
  client?: Partial<AgentClientTimeouts>;
  apks?: () => AgentApks;
}

const INSTRUMENT = `am instrument -w -e disableAnalytics true ${AGENT_RUNNER}`;
const ADB_GONE = new Set(['ADB_DISCONNECTED', 'ADB_TIMEOUT']);

/**
 * The phone's on-device agent (Appium's UiAutomator2 server), kept running while the worker runs:
 * installed from the npm package when the phone lacks it or has another version, started with
 * `am instrument -w` (the held stream ends when the agent dies), reached through `adb forward`,
 * asked for health with every status check and restarted when it stopped answering. It only
 * reads the screen: every tap still goes through the purchase's tap guard over ADB. It is a
 * capability, not a requirement — while it is not running every read is a `uiautomator dump`.
 */
export class PhoneAgent implements HierarchySource {
  private current: PhoneAgentReport = { state: 'starting', reason: null };
  private client: AgentClient | null = null;
  private held: Duplex | null = null;
  /** `adb forward`'s local port, kept across starts: forwarding it again replaces the rule, where a
   *  new port each start would leave one more listener on the ADB server every restart */
  private port: number | null = null;
  private bringing: Promise<void> | null = null;
  /** a new start is tried from then on; 0: at once */
  private nextTryAt = 0;
  /** this phone can never have it (too old, ADB elsewhere): no more tries */
  private never = false;
  private stopped = false;
  /** every start has its number, so a run that ended late cannot touch a newer one */
  private run = 0;
  /** the phone's API level, read once */
  private sdk: number | null = null;

  constructor(private readonly opts: PhoneAgentOptions) {}

  /** What the device page shows: `running`, `starting`, or `unavailable` with the reason. */
  report(): PhoneAgentReport {
    return { ...this.current };
  }

  ready(): boolean {
    return this.current.state === 'running' && this.client !== null;
  }

  read(): Promise<string> {
    if (!this.client) return Promise.reject(new AgentError('the agent is not running'));
    return this.client.source();
  }

  /**
   * A read failed: reads go to `uiautomator dump` until a check brought the agent back. Android
   * lets one UiAutomation connect at a time, and a dump is refused while the agent's still runs
   * (`UiAutomationService … already registered`), so the agent is stopped before this returns and
   * the dump that follows it is made.
   */
  async failed(err: unknown): Promise<void> {
    if (this.current.state !== 'running') return;
    this.opts.log.warn({ err: describeError(err) }, 'the agent could not read the screen; reading by uiautomator dump');
    this.lost(`a read failed: ${describeError(err)}`);
    await this.forceStop();
  }

  /** true while it is being installed or started: a claim waits for it (a start takes the phone's UiAutomation) */
  get starting(): boolean {
    return this.bringing !== null && this.client === null;
  }

  /**
   * Asks a running agent whether it still answers and, when `mayStart`, brings up one that is not
   * running (after a failed start, only once `retryMs` passed). The worker starts it only while
   * it holds no claim: an install holds the phone's ADB for its push, and while a start is under
   * way neither the agent nor a dump can read the screen. Never throws; joins a check under way.
   */
  keep(opts: { mayStart: boolean } = { mayStart: true }): Promise<void> {
    if (this.stopped || this.never) return Promise.resolve();
    this.bringing ??= this.keepOnce(opts.mayStart).finally(() => (this.bringing = null));
    return this.bringing;
  }

  /** Stops it, so the phone's accessibility is its own again (a person may use it next). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.run += 1;
    this.client = null;
    await this.bringing?.catch(() => undefined);
    this.release();
    await this.forceStop();
  }

  private async keepOnce(mayStart: boolean): Promise<void> {
    if (this.client) {
      if (await this.client.status()) return;
      this.lost('it stopped answering');
      await this.forceStop();
    }
    // a stop() that came while the status was asked must not be followed by a fresh start
    if (this.stopped || !mayStart || Date.now() < this.nextTryAt) return;
    await this.bringUp();
  }

  /** Kills the instrumentation's process (bounded, best effort): the phone's UiAutomation is free again. */
  private async forceStop(): Promise<void> {
    await this.opts.adb.shell(`am force-stop ${AGENT_TEST_PACKAGE}`, 5_000).catch(() => undefined);
  }

  private async bringUp(): Promise<void> {
    const run = ++this.run;
    this.set({ state: 'starting', reason: this.current.reason });
    try {
      const refusal = await this.cannotHave();
      if (refusal) {
        this.never = true;
        this.set({ state: 'unavailable', reason: refusal });
        this.opts.log.info({ reason: refusal }, 'no on-device agent on this phone; reading by uiautomator dump');
        return;
      }
      await this.install((this.opts.apks ?? agentApks)());
      const client = await this.start(run);
      if (run !== this.run) return;
      this.client = client;
      this.nextTryAt = 0;
      this.set({ state: 'running', reason: null });
      this.opts.log.info('on-device agent running: the screen is read through it');
    } catch (err) {
      if (run !== this.run) return;
      this.client = null;
      this.release();
      // one that started but never said ready would hold the phone's UiAutomation from the dumps
      await this.forceStop();
      // a phone that left ADB is tried again at the first check that finds it back; one that
      // refused the agent, only after retryMs (no start loop on a phone that never runs it)
      this.nextTryAt = isDeviceError(err) && ADB_GONE.has(err.code) ? 0 : Date.now() + (this.opts.retryMs ?? 60_000);
      // a phone that refused the install (a vendor's confirmation dialog, no room) is not asked
      // again until the worker restarts: every ask could put a dialog on its screen
      if (err instanceof InstallRefused) this.never = true;
      const reason = `the agent did not start: ${describeError(err)}`;
      this.set({ state: 'unavailable', reason });
      this.opts.log.warn({ reason }, 'no on-device agent for now; reading by uiautomator dump');
    }
  }

  /** Why this phone can never have the agent; null when it can. */
  private async cannotHave(): Promise<string | null> {
    const { host } = this.opts.adb.target;
    if (!isLoopbackHost(host))
      return `the ADB server runs on ${host}: a forwarded port would listen there, not on this machine`;
    this.sdk ??= Number(await this.opts.adb.getprop('ro.build.version.sdk'));
    const { sdk } = this;
    if (!Number.isInteger(sdk)) throw new AgentError('the phone did not say its Android version');
    return sdk < AGENT_MIN_SDK ? `Android API ${sdk} is older than 8.0 (API ${AGENT_MIN_SDK})` : null;
  }

  /** Installs both APKs unless the phone has this version of the server and its instrumentation. */
  private async install(apks: AgentApks): Promise<void> {
    const { adb } = this.opts;
    const version = parseVersionName(await adb.shell(`dumpsys package ${AGENT_PACKAGE}`), AGENT_PACKAGE);
    const runner = (await adb.shell('pm list instrumentation')).includes(AGENT_RUNNER);
    if (version === apks.version && runner) return;
    const limit = this.opts.installMs ?? 120_000;
    for (const file of [apks.server, apks.test]) {
      const remote = `/data/local/tmp/${path.basename(file)}`;
      let out: string;
      try {
        await adb.push(fs.createReadStream(file), remote, limit);
        out = await adb.shell(`pm install -r -g -t ${remote}`, limit);
      } finally {
        await adb.shell(`rm -f ${remote}`).catch(() => undefined);
      }
      if (!/^Success/m.test(out))
        throw new InstallRefused(`pm install ${path.basename(file)}: ${out.trim().slice(0, 200) || 'no answer'}`);
    }
    this.opts.log.info({ was: version, now: apks.version }, 'on-device agent installed');
  }

  /** Forwards a free local port, starts the instrumentation and waits until it says ready. */
  private async start(run: number): Promise<AgentClient> {
    const { adb } = this.opts;
    this.release();
    const port = (this.port ??= await freePort());
    await adb.forward(port, AGENT_PORT).catch((err: unknown) => {
      this.port = null; // perhaps taken meanwhile: the next start picks another
      throw err;
    });
    const held = await adb.holdShell(INSTRUMENT);
    this.held = held;
    let output = '';
    let ended = false;
    held.on('data', (d: Buffer) => (output = (output + d.toString('utf8')).slice(-2_000)));
    held.on('error', () => undefined);
    held.on('close', () => {
      ended = true;
      if (run === this.run && this.client) this.lost(`it stopped (${lastLine(output)})`);
    });
    const client = new AgentClient(port, this.opts.client);
    const deadline = Date.now() + (this.opts.startWaitMs ?? 30_000);
    while (!(await client.status())) {
      if (ended) throw new AgentError(`am instrument ended: ${lastLine(output)}`);
      if (Date.now() >= deadline || run !== this.run) throw new AgentError('it did not say it was ready in time');
      await sleep(200);
    }
    await client.openSession();
    return client;
  }

  /** It was running and is not now: reads go to dumps, the next check starts it again at once. */
  private lost(why: string): void {
    this.client = null;
    this.release();
    this.nextTryAt = 0;
    this.set({ state: 'starting', reason: why });
  }

  private release(): void {
    const held = this.held;
    this.held = null;
    held?.destroy();
  }

  /** The reason is one printable line, as the admin takes it. */
  private set(report: PhoneAgentReport): void {
    this.current = { state: report.state, reason: agentReasonText(report.reason) };
  }
}

/** The phone answered `pm install` with a failure. */
class InstallRefused extends AgentError {}

/** What `am instrument` said as it ended: its short message or error when it gave one, else its last line. */
function lastLine(output: string): string {
  const said = /(?:shortMsg|Error)=([^\n]+)/.exec(output)?.[1];
  const lines = output.trim().split('\n');
  return (said ?? lines[lines.length - 1] ?? '').trim().slice(0, 200) || 'no output';
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
