import { Worker, type NativeConnection } from '@temporalio/worker';
import { DEVICES_TASK_QUEUE, deviceClaimTaskQueue } from '../../domain/task-queues';
import { describeError } from '../../platform/errors';
import { temporalDataConverter } from '../../temporal/codec';
import { tracingWorkerInterceptors } from '../../temporal/tracing';
import { withChaosPoints } from '../../temporal/chaos';
import type { Logger } from '../../platform/logger';
import type { DeviceLedger } from '../ledger/ledger';

/**
 * The Workers on the claim queues — the shared `devices` queue, and this phone's own claim queue
 * (domain/task-queues.ts `deviceClaimTaskQueue`) for a workflow that needs this phone and no other
 * — which can hand this phone to a workflow. They run
 * only while the phone has no open claim, may take one (runtime/device-status.ts) and its own
 * `device/<id>` queue is being polled: after
 * a claim it is shut down, so a busy phone never takes another; after the release (or the
 * closing of an orphan claim) it is created again, so an idle phone picks up waiting work
 * within seconds.
 */
export class ClaimPoller {
  private connection: NativeConnection | undefined;
  private stopping = false;
  /** by claim queue: the Worker polling it and its run */
  private readonly workers = new Map<string, { worker: Worker; run: Promise<void> }>();
  /** start and stop one at a time: a claim and a release can arrive back to back */
  private transitions: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: {
      namespace: string;
      /** runtime/identity.ts */
      identity: string;
      ledger: DeviceLedger;
      claimActivities: object;
      log: Logger;
      /** false while the phone may take no claim (runtime/device-status.ts): paused, 需处理, off ADB */
      mayClaim?: () => boolean;
    },
  ) {}

  /** The phone's own queue is polling on `connection`: claims may be taken now if the phone is idle. */
  attach(connection: NativeConnection): Promise<void> {
    this.connection = connection;
    return this.pollIfIdle();
  }

  /** The connection is going away: stop taking claims before it does. */
  detach(): Promise<void> {
    this.connection = undefined;
    return this.pollIfIdle();
  }

  stop(): Promise<void> {
    this.stopping = true;
    return this.pollIfIdle();
  }

  /** Polls `devices` exactly when the phone is idle, connected, may claim and is not stopping; call after any change. */
  pollIfIdle(): Promise<void> {
    this.transitions = this.transitions
      .then(async () => {
        const wantPolling =
          !this.stopping &&
          !!this.connection &&
          this.opts.ledger.openClaim() === null &&
          (this.opts.mayClaim?.() ?? true);
        if (wantPolling) await this.start(this.connection as NativeConnection);
        else if (this.workers.size > 0) await this.shutdown();
      })
      .catch((err: unknown) => this.opts.log.warn({ err: describeError(err) }, 'claim poller transition failed'));
    return this.transitions;
  }

  /** A Worker on each claim queue that has none running (one that stopped by itself is started again). */
  private async start(connection: NativeConnection): Promise<void> {
    const missing = this.queues().filter((q) => !this.workers.has(q));
    for (const taskQueue of missing) {
      const worker = await Worker.create({
        connection,
        namespace: this.opts.namespace,
        taskQueue,
        identity: this.opts.identity,
        activities: this.opts.claimActivities,
        dataConverter: temporalDataConverter(),
        interceptors: withChaosPoints(tracingWorkerInterceptors()),
        // one claim at a time: a phone is handed to one workflow (two queues' claims at once: the
        // ledger records one, the other is refused as DEVICE_BUSY and tried again)
        maxConcurrentActivityTaskExecutions: 1,
        shutdownGraceTime: '10 seconds',
      });
      const run = worker
        .run()
        .catch((err: unknown) => this.opts.log.warn({ err: describeError(err) }, 'claim poller stopped'))
        .finally(() => {
          if (this.workers.get(taskQueue)?.worker === worker) this.workers.delete(taskQueue);
        });
      this.workers.set(taskQueue, { worker, run });
    }
    if (missing.length > 0) this.opts.log.info('idle: polling for claims');
  }

  private async shutdown(): Promise<void> {
    const running = [...this.workers.entries()];
    for (const [, { worker }] of running) if (worker.getState() === 'RUNNING') worker.shutdown();
    await Promise.all(running.map(([, { run }]) => run));
    for (const [q, w] of running) if (this.workers.get(q) === w) this.workers.delete(q);
    this.opts.log.info('busy, refusing claims or stopping: not polling for claims');
  }

  private queues(): readonly string[] {
    return [DEVICES_TASK_QUEUE, deviceClaimTaskQueue(this.opts.ledger.deviceId)];
  }
}
