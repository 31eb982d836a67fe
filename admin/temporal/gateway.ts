import { Client, Connection } from '@temporalio/client';
import { optionalTsToDate } from '@temporalio/common/lib/time';
import type { Logger } from '../../platform/logger';
import { temporalDataConverter } from '../../temporal/codec';
import { temporalConnectOptions, type TemporalConnectionSettings } from '../../temporal/connection';
import { tracingClientInterceptors } from '../../temporal/tracing';
import { unavailable } from '../../domain/api-error';

export type TemporalSettings = TemporalConnectionSettings & {
  /** the Web UI of this server, for links operators follow (temporal/connection.ts temporalTarget) */
  uiUrl?: string | null;
  /** the embedded Web UI the admin serves at `/temporal/` (admin/http/temporal-ui-proxy.ts) */
  uiUpstream?: string | null;
};

/**
 * The admin's one Temporal client. The admin must come up (and say so on /healthz) while
 * Temporal is down, so the connection is made lazily and retried on the next use instead of
 * failing the start.
 */
export class TemporalGateway {
  private connecting: Promise<Client> | undefined;
  private connection: Connection | undefined;

  constructor(
    readonly settings: TemporalSettings,
    private readonly log: Logger,
  ) {}

  async client(): Promise<Client> {
    if (!this.connecting) {
      this.connecting = (async () => {
        const connection = await Connection.connect({
          ...temporalConnectOptions(this.settings),
          connectTimeout: 2_000,
        });
        this.connection = connection;
        return new Client({
          connection,
          namespace: this.settings.namespace,
          dataConverter: temporalDataConverter(),
          // an operator's start carries the trace into the purchase (temporal/tracing.ts)
          interceptors: tracingClientInterceptors(),
        });
      })();
      this.connecting.catch((err: Error) => {
        this.log.warn({ err: err.message, address: this.settings.address }, 'Temporal not reachable');
        this.connecting = undefined;
      });
    }
    try {
      return await this.connecting;
    } catch {
      throw unavailable(
        'TEMPORAL_UNAVAILABLE',
        `Temporal at ${this.settings.address} is not reachable; try again when /healthz says temporal "ok"`,
      );
    }
  }

  /** True only when the namespace answers right now (a cached connection may be stale). */
  async healthy(): Promise<boolean> {
    try {
      const client = await this.client();
      await client.connection.withDeadline(Date.now() + 2_000, () =>
        client.workflowService.describeNamespace({ namespace: this.settings.namespace }),
      );
      return true;
    } catch {
      return false;
    }
  }

  /**
   * When each worker polling `taskQueue` for activities last asked for work, as the server saw
   * it. Throws when Temporal does not answer within `timeoutMs`; callers decide what that means.
   */
  async activityPollers(
    taskQueue: string,
    timeoutMs: number,
  ): Promise<Array<{ identity: string; lastAccessTime: Date | null }>> {
    const client = await this.client();
    const res = await client.connection.withDeadline(Date.now() + timeoutMs, () =>
      client.workflowService.describeTaskQueue({
        namespace: this.settings.namespace,
        // the enum values TASK_QUEUE_KIND_NORMAL and TASK_QUEUE_TYPE_ACTIVITY (@temporalio/proto is not a dependency of its own)
        taskQueue: { name: taskQueue, kind: 1 },
        taskQueueType: 2,
      }),
    );
    return (res.pollers ?? []).map((p) => ({
      identity: p.identity ?? '',
      lastAccessTime: optionalTsToDate(p.lastAccessTime) ?? null,
    }));
  }

  async close(): Promise<void> {
    await this.connection?.close().catch(() => undefined);
  }
}
