import fs from 'node:fs';
import path from 'node:path';
import { SupervisedChild, type RestartPolicy } from '../../platform/children';
import { running } from '../../platform/process-tree';
import type { Service } from './config';

/**
 * Service processes of an earlier run on this config that was killed outright (its children
 * outlive it and hold the ports): found by their command line, which names this root's config.
 */
export async function endLeftovers(configFile: string, say: (line: string) => void): Promise<void> {
  const mine = fs.readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      return args.includes('--config-file') && args[args.indexOf('--config-file') + 1] === configFile;
    } catch {
      return false; // ended while we looked
    }
  });
  if (mine.length === 0) return;
  say(`ending ${mine.length} Temporal service process(es) an earlier run left behind: ${mine.join(', ')}`);
  for (const pid of mine.map(Number)) process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 50 && mine.map(Number).some(running); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Quick restarts: a chaos run kills a service on purpose and wants it back at once; a service
 * that cannot start still backs off to 10 s between tries.
 */
const RESTART_POLICY: RestartPolicy = { initialDelayMs: 200, maxDelayMs: 10_000, stableAfterMs: 20_000 };

/** Each service says this once its gRPC listener is open. */
const READY = /Starting to serve on (frontend|history|matching|worker) listener/;

interface ServiceOptions {
  server: string;
  configFile: string;
  logDir: string;
  say: (line: string) => void;
}

/**
 * One Temporal service in its own process, restarted when it dies (platform/children.ts), so a
 * chaos kill of history, matching or frontend is survived like a crashed pod in a real cluster.
 */
export function startService(service: Service, opts: ServiceOptions): Promise<SupervisedChild> {
  return SupervisedChild.start(
    {
      name: `temporal-${service}`,
      command: opts.server,
      args: ['--config-file', opts.configFile, '--allow-no-auth', 'start', '--service', service],
      readyLine: READY,
      readyTimeoutMs: 120_000,
      logFile: path.join(opts.logDir, `${service}.log`),
    },
    {
      policy: RESTART_POLICY,
      onRestart: (e) => opts.say(`${e.child} ended (${e.exit}): restart ${e.restart} in ${e.delay_ms} ms`),
    },
  );
}

/**
 * Ends the service's current process and resolves once its successor said it is ready (the
 * supervisor starts it; `SupervisedChild.pid` changes only when the new one is ready).
 */
export async function restartService(child: SupervisedChild, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const old = child.pid;
  if (old === undefined) return;
  process.kill(old, signal);
  const deadline = Date.now() + 180_000;
  while (child.pid === old || child.pid === undefined || !running(child.pid)) {
    if (Date.now() > deadline) throw new Error(`${child.name} did not come back within 180 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
