import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** a line on stdout that means "ready"; its match is returned */
  readyLine: RegExp;
  readyTimeoutMs?: number;
  logFile: string;
  /** lines shown on the terminal and never written to the log (the one-time admin password) */
  terminalOnly?: RegExp;
}

export interface RunningChild {
  name: string;
  process: ChildProcess;
  readyMatch: RegExpMatchArray;
  exited: Promise<void>;
}

/**
 * Children of `npm start`. Their output goes to `<data>/logs/<name>.out` (each process also
 * keeps its own JSON log there); only the supervisor talks to the terminal, so READY is easy
 * to spot and scripts can wait for it.
 */
export async function startChild(spec: ChildSpec): Promise<RunningChild> {
  fs.mkdirSync(path.dirname(spec.logFile), { recursive: true });
  const log = fs.createWriteStream(spec.logFile, { flags: 'a' });
  const child = spawn(spec.command, spec.args, { env: { ...process.env, ...spec.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const readyMatch = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${spec.name} did not say it was ready within ${spec.readyTimeoutMs ?? 120_000} ms; see ${spec.logFile}`)),
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
      const m = ready ? null : spec.readyLine.exec(line);
      if (m) {
        ready = true;
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${spec.name} exited (${signal ?? code}) before it was ready; see ${spec.logFile}`));
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
