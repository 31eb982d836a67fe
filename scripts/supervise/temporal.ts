import path from 'node:path';
import type { Env } from '../../admin/config/env';
import { DEFAULT_RESTART_POLICY, EXIT_GRACE_MS, type RestartEvent, type RestartPolicy } from '../../platform/children';
import type { DataPaths } from '../../platform/data-dir';
import { TEMPORAL_UI_PATH, type TemporalTarget } from '../../temporal/connection';
import { startDevServer, waitForTemporal, type DevServer } from '../../temporal/dev-server';

/** What the supervisor holds of the embedded server, whichever start of it is running. */
export interface EmbeddedTemporal {
  /** the Web UI with its public path; the admin serves it at TEMPORAL_UI_PATH */
  readonly uiUrl: string | null;
  /** the supervisor is shutting down: an exit from now on is not restarted */
  standDown(): void;
  stop(): Promise<void>;
}

/**
 * The Temporal server of `npm start`: the embedded dev server (SQLite under the data dir), or an
 * existing server the environment names, waited for. Only the embedded one is ours to stop, and
 * to start again when it dies on its own.
 */
export async function startTemporal(
  env: Env,
  paths: DataPaths,
  target: TemporalTarget,
  say: (line: string) => void,
  onRestart: (event: RestartEvent) => void,
): Promise<EmbeddedTemporal | undefined> {
  if (!target.embedded) {
    say(`using the Temporal server at ${target.address}`);
    await waitForTemporal(target.address, target.namespace, 30_000);
    return undefined;
  }
  say(`starting Temporal dev server on ${target.address}`);
  const start = async () => {
    const server = await startDevServer({
      dbFile: paths.temporalDb,
      namespace: target.namespace,
      port: env.CMAUTOBUY_TEMPORAL_PORT,
      uiPort: env.CMAUTOBUY_TEMPORAL_UI_PORT,
      // the admin serves this UI on its own origin (admin/http/temporal-ui-proxy.ts), where the
      // operator's session reaches its codec calls
      uiPublicPath: TEMPORAL_UI_PATH,
      logFile: path.join(paths.logs, 'temporal.log'),
      retentionDays: env.CMAUTOBUY_TEMPORAL_RETENTION_DAYS,
      say,
    });
    return server;
  };
  return new SupervisedTemporal(start, await start(), DEFAULT_RESTART_POLICY, onRestart);
}

/**
 * The embedded server, started again on the same SQLite file when it dies on its own — with the
 * growing delay and the restart report of every other child (platform/children.ts
 * SupervisedChild) — so purchases in flight go on from their history.
 */
class SupervisedTemporal implements EmbeddedTemporal {
  private stopping = false;
  private restarts = 0;
  private readonly loop: Promise<void>;

  constructor(
    private readonly start: () => Promise<DevServer>,
    private current: DevServer,
    private readonly policy: RestartPolicy,
    private readonly onRestart: (event: RestartEvent) => void,
  ) {
    this.loop = this.watch();
  }

  get uiUrl(): string | null {
    return this.current.uiUrl;
  }

  standDown(): void {
    this.stopping = true;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.current.stop();
    await this.loop;
  }

  private report(exit: string, delay: number): void {
    this.restarts++;
    this.onRestart({ child: 'temporal', exit, restart: this.restarts, delay_ms: delay });
  }

  private async watch(): Promise<void> {
    let delay = this.policy.initialDelayMs;
    for (;;) {
      const startedAt = Date.now();
      const exit = await this.current.exited;
      // Ctrl-C reaches the server too, maybe before the supervisor's own handler ran
      if (!this.stopping) await sleep(EXIT_GRACE_MS);
      if (this.stopping) return;
      if (Date.now() - startedAt >= this.policy.stableAfterMs) delay = this.policy.initialDelayMs;
      this.report(exit, delay);
      await sleep(delay);
      delay = Math.min(delay * 2, this.policy.maxDelayMs);
      while (!this.stopping) {
        try {
          this.current = await this.start();
          break;
        } catch (err) {
          if (this.stopping) return;
          this.report((err as Error).message, delay);
          await sleep(delay);
          delay = Math.min(delay * 2, this.policy.maxDelayMs);
        }
      }
      if (this.stopping) {
        await this.current.stop();
        return;
      }
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
