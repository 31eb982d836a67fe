import { Worker, type NativeConnection } from '@temporalio/worker';
import { DEVICES_TASK_QUEUE } from '../../domain/task-queues';
import { describeError } from '../../platform/errors';
import { temporalDataConverter } from '../../temporal/codec';
import { tracingWorkerInterceptors } from '../../temporal/tracing';
import { withChaosPoints } from '../../temporal/chaos';
import type { Logger } from '../../platform/logger';
import type { DeviceLedger } from '../ledger/ledger';

/**
 * The Worker on the shared `devices` queue, which can hand this phone to a workflow. It runs
 * only while the phone has no open claim, may take one (runtime/device-status.ts) and its own
 * `device/<id>` queue is being polled: after
 * a claim it is shut down, so a busy phone never takes another; after the release (or the
 * closing of an orphan claim) it is created again, so an idle phone picks up waiting work
 * within seconds.
 */
export class ClaimPoller {
  private connection: NativeConnection | undefined;
  private stopping = false;
  private worker: Worker | undefined;
  private run: Promise<void> | undefined;
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
        if (wantPolling && !this.worker) await this.start(this.connection as NativeConnection);
        else if (!wantPolling && this.worker) await this.shutdown(this.worker);
      })
      .catch((err: unknown) => this.opts.log.warn({ err: describeError(err) }, 'claim poller transition failed'));
    return this.transitions;
  }

  private async start(connection: NativeConnection): Promise<void> {
    const w = await Worker.create({
      connection,
      namespace: this.opts.namespace,
      taskQueue: DEVICES_TASK_QUEUE,
      identity: this.opts.identity,
      activities: this.opts.claimActivities,
      dataConverter: temporalDataConverter(),
      interceptors: withChaosPoints(tracingWorkerInterceptors()),
      // one claim at a time: a phone is handed to one workflow
      maxConcurrentActivityTaskExecutions: 1,
      shutdownGraceTime: '10 seconds',
    });
    this.worker = w;
    this.run = w
      .run()
      .catch((err: unknown) => this.opts.log.warn({ err: describeError(err) }, 'claim poller stopped'))
      .finally(() => {
        if (this.worker === w) this.worker = undefined;
      });
    this.opts.log.info('idle: polling for claims');
  }

  private async shutdown(w: Worker): Promise<void> {
    if (w.getState() === 'RUNNING') w.shutdown();
    await this.run;
    if (this.worker === w) this.worker = undefined;
    this.opts.log.info('busy, refusing claims or stopping: not polling for claims');
  }
}
