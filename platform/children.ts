import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { bindFailure } from './port-holder';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  /** what this child needs on top of `baseEnvironment()`; secrets go here, to the one child that needs them */
  env?: NodeJS.ProcessEnv;
  /** written to the child's stdin, which then ends: a secret for it alone, off its command line and environment */
  stdin?: string;
  /** a line on stdout that means "ready"; its match is returned */
  readyLine: RegExp;
  readyTimeoutMs?: number;
  logFile: string;
  /** lines shown on the terminal and never written to the log (the one-time admin password) */
  terminalOnly?: RegExp;
  /**
   * Batch work (phones, simulators, the admin's Temporal worker): started at nice 10, so on a
   * machine whose cores they fill the admin still answers operators first. Every thread of the
   * child inherits it, which a renice after the start would not give (Linux nices per thread).
   */
  background?: boolean;
  /**
   * The admin, which answers operators: started at nice −10 where the supervisor may raise a
   * process (`mayRaisePriority`), so its event loop gets a core as soon as a request arrives, ahead
   * of the Temporal server's threads at 0 and the batch at 10, when they fill the cores. It is
   * like nginx's `worker_priority`. JavaScript runs on one thread, so a busy admin still leaves
   * the other cores to the rest. Without the right to raise a process it starts at the
   * supervisor's own niceness, and its log file says so.
   */
  answersOperators?: boolean;
}

/** The batch children's niceness (`ChildSpec.background`), where `nice` exists. */
const BACKGROUND_NICE = '10';
/** The admin's niceness (`ChildSpec.answersOperators`), where the supervisor may raise a process. */
const OPERATORS_NICE = '-10';
const NICE = ['/usr/bin/nice', '/bin/nice'].find((p) => fs.existsSync(p));

/**
 * Whether this process may start a child at a negative niceness: CAP_SYS_NICE in its effective
 * capabilities (Linux; root has it, except in a container that drops it, as Docker does by
 * default). Without it, `nice -n -10` would only warn and run the child at the supervisor's own
 * niceness anyway.
 */
export function mayRaisePriority(status = '/proc/self/status'): boolean {
  try {
    const effective = /^CapEff:\s*([0-9a-f]+)$/m.exec(fs.readFileSync(status, 'utf8'))?.[1];
    return effective !== undefined && (BigInt(`0x${effective}`) & CAP_SYS_NICE) !== 0n;
  } catch {
    return false; // no /proc: not Linux, or hidden; start at the supervisor's own niceness
  }
}
const CAP_SYS_NICE = 1n << 23n;

/** The niceness a child starts at, or undefined for the supervisor's own. */
function niceFor(spec: ChildSpec): string | undefined {
  if (!NICE) return undefined;
  if (spec.background) return BACKGROUND_NICE;
  if (spec.answersOperators && mayRaisePriority()) return OPERATORS_NICE;
  return undefined;
}

export interface RunningChild {
  name: string;
  process: ChildProcess;
  readyMatch: RegExpMatchArray;
  exited: Promise<void>;
}

/** Variables that hold a secret: a child gets one only when its spec passes it explicitly. */
const SECRET_ENV = [
  'CMAUTOBUY_ADMIN_PASSWORD',
  'CMAUTOBUY_DEVICE_TOKEN',
  'CMAUTOBUY_HOST_TOKEN',
  'CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS',
] as const;

// What any Node process or the Temporal CLI needs to run at all; nothing that is ours to hide.
const SYSTEM_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];

/**
 * The environment every child starts from: the system's basics and the CMAUTOBUY_* settings
 * (ports, addresses, TLS file paths, log level), never a secret. A password in the simulator's
 * or the Temporal server's environment is one `/proc/<pid>/environ` away from anyone who can
 * read that process.
 */
export function baseEnvironment(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (SYSTEM_ENV.includes(key) || (key.startsWith('CMAUTOBUY_') && !(SECRET_ENV as readonly string[]).includes(key)))
      out[key] = value;
  }
  return out;
}

/**
 * Children of `npm start` and a phone host's device workers. Their output goes to their
 * `logFile` under `<data>/logs/` (each process also keeps its own JSON log there); only the
 * supervisor talks to the terminal, so READY is easy to spot and scripts can wait for it.
 */
export async function startChild(spec: ChildSpec): Promise<RunningChild> {
  fs.mkdirSync(path.dirname(spec.logFile), { recursive: true, mode: 0o700 });
  const log = fs.createWriteStream(spec.logFile, { flags: 'a', mode: 0o600 });
  const nice = niceFor(spec);
  const [command, args] = nice ? [NICE!, ['-n', nice, spec.command, ...spec.args]] : [spec.command, spec.args];
  if (spec.answersOperators && !nice)
    log.write(
      `${spec.name} starts at the supervisor's niceness: answering operators first needs CAP_SYS_NICE (docs/operations.md)\n`,
    );
  // nice execs the command: the pid is the child's own, for signals and the restart log alike
  const child = spawn(command, args, {
    env: { ...baseEnvironment(), ...spec.env },
    stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (spec.stdin !== undefined) {
    // a child that dies before reading it shows in its exit, not as an EPIPE here
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(spec.stdin);
  }
  child.stderr?.pipe(log, { end: false });
  // the last lines, so a child that cannot bind its port is reported with the port and its holder
  const tail: string[] = [];
  const keep = (line: string) => void (tail.push(line) > 40 && tail.shift());
  if (child.stderr) readline.createInterface({ input: child.stderr }).on('line', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(
    () => log.end(),
    () => undefined,
  );

  const readyMatch = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `${spec.name} did not say it was ready within ${spec.readyTimeoutMs ?? 120_000} ms; see ${spec.logFile}`,
          ),
        ),
      spec.readyTimeoutMs ?? 120_000,
    );
    const lines = readline.createInterface({ input: child.stdout! });
    let ready = false;
    lines.on('line', (line) => {
      if (spec.terminalOnly?.test(line)) {
        console.log(line);
        return;
      }
      log.write(`${line}\n`);
      keep(line);
      const m = ready ? null : spec.readyLine.exec(line);
      if (m) {
        ready = true;
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready)
        // stderr may still be flushing: give its last lines a moment to arrive
        setTimeout(() => {
          const bind = bindFailure(spec.name, tail);
          reject(
            new Error(
              `${bind ? `${bind}; ` : ''}${spec.name} exited (${signal ?? code}) before it was ready; see ${spec.logFile}`,
            ),
          );
        }, 100);
    });
  });
  return { name: spec.name, process: child, readyMatch, exited };
}

/** SIGTERM, then SIGKILL after a grace period: nothing is left behind either way. */
export async function stopChild(child: RunningChild, graceMs = 10_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

export interface RestartPolicy {
  /** the wait before the first restart; it doubles with each restart in a row */
  initialDelayMs: number;
  maxDelayMs: number;
  /** a child that stayed up this long starts again from `initialDelayMs` */
  stableAfterMs: number;
}

/** How long an exit waits for a shutdown to show before it counts as a crash. */
export const EXIT_GRACE_MS = 300;

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};

export interface RestartEvent {
  child: string;
  exit: string;
  restart: number;
  delay_ms: number;
}

/**
 * A child that is restarted when it dies on its own — with a growing delay, so a child that
 * cannot start does not spin — instead of taking the whole system down with it. Only `stop()`
 * (the supervisor's SIGINT/SIGTERM) ends it for good. Every restart is reported to `onRestart`.
 */
export class SupervisedChild {
  private current: RunningChild;
  private stopping = false;
  private restarts = 0;
  private loop: Promise<void>;

  private constructor(
    private readonly spec: ChildSpec,
    first: RunningChild,
    private readonly policy: RestartPolicy,
    private readonly onRestart: (event: RestartEvent) => void,
  ) {
    this.current = first;
    this.loop = this.watch();
  }

  static async start(
    spec: ChildSpec,
    opts: { policy?: RestartPolicy; onRestart: (event: RestartEvent) => void },
  ): Promise<SupervisedChild> {
    const first = await startChild(spec);
    return new SupervisedChild(spec, first, opts.policy ?? DEFAULT_RESTART_POLICY, opts.onRestart);
  }

  get name(): string {
    return this.spec.name;
  }

  /** The ready line of the first start (its ports and URL; a restart reuses the configured ones). */
  get readyMatch(): RegExpMatchArray {
    return this.current.readyMatch;
  }

  get pid(): number | undefined {
    return this.current.process.pid;
  }

  /**
   * The supervisor is shutting down: an exit from now on is not restarted or reported. Ctrl-C
   * reaches every child of the terminal's process group at once, before `stop()` gets to it.
   */
  standDown(): void {
    this.stopping = true;
  }

  /** `graceMs`: how long SIGTERM may take before SIGKILL (a device worker drains its claim). */
  async stop(graceMs?: number): Promise<void> {
    this.stopping = true;
    await stopChild(this.current, graceMs);
    await this.loop;
  }

  private async watch(): Promise<void> {
    let delay = this.policy.initialDelayMs;
    for (;;) {
      const startedAt = Date.now();
      await this.current.exited;
      // a child that got the terminal's SIGINT may exit before the supervisor's own handler ran
      if (!this.stopping) await new Promise((r) => setTimeout(r, EXIT_GRACE_MS));
      if (this.stopping) return;
      if (Date.now() - startedAt >= this.policy.stableAfterMs) delay = this.policy.initialDelayMs;
      const proc = this.current.process;
      this.restarts++;
      this.onRestart({
        child: this.spec.name,
        exit: proc.signalCode ?? `code ${proc.exitCode}`,
        restart: this.restarts,
        delay_ms: delay,
      });
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, this.policy.maxDelayMs);
      // a stop() during the wait or the start wins: nothing is started after it
      while (!this.stopping) {
        try {
          this.current = await startChild(this.spec);
          break;
        } catch (err) {
          if (this.stopping) return;
          this.restarts++;
          this.onRestart({
            child: this.spec.name,
            exit: (err as Error).message,
            restart: this.restarts,
            delay_ms: delay,
          });
          await new Promise((r) => setTimeout(r, delay));
          delay = Math.min(delay * 2, this.policy.maxDelayMs);
        }
      }
      if (this.stopping) {
        await stopChild(this.current);
        return;
      }
    }
  }
}
