import { NativeConnection, Worker } from '@temporalio/worker';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { temporalDataConverter } from '../../temporal/codec';
import { tracingWorkerInterceptors } from '../../temporal/tracing';
import { withChaosPoints } from '../../temporal/chaos';
import { temporalConnectOptions, type TemporalConnectionSettings } from '../../temporal/connection';
import { DriverGate } from './driver-gate';

const RECONNECT_DELAY_MS = 2_000;

export interface DeviceQueueOptions {
  temporal: TemporalConnectionSettings;
  /** `device/<id>` */
  taskQueue: string;
  activities: object;
  /** runtime/identity.ts: names the host, the phone and the process in Temporal */
  identity: string;
  log: Logger;
  /** the queue is polling on this connection (the claim poller may start on it) */
  onConnected: (connection: NativeConnection) => Promise<void>;
  /** the connection is about to close (the claim poller must stop first) */
  onDisconnecting: () => Promise<void>;
}

export interface DeviceQueue {
  /** resolves when the phone's queue is first being polled */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps the Worker on the phone's own queue `device/<id>` running: Temporal may be down at
 * start or go away later, so the worker reconnects every 2 s until stopped instead of exiting;
 * a workflow that waits on this phone resumes as soon as it is back.
 */
export function runDeviceQueue(opts: DeviceQueueOptions): DeviceQueue {
  let stopping = false;
  let worker: Worker | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const gate = new DriverGate();
  const activities = gate.wrap(opts.activities);

  const loop = (async () => {
    while (!stopping) {
      let connection: NativeConnection | undefined;
      try {
        if (gate.busy > 0) {
          opts.log.warn(
            { activities: gate.busy },
            'an activity of the previous connection still drives the phone; reconnecting once it ends',
          );
          await gate.idle();
          if (stopping) break;
        }
        connection = await NativeConnection.connect(temporalConnectOptions(opts.temporal));
        worker = await Worker.create({
          connection,
          namespace: opts.temporal.namespace,
          taskQueue: opts.taskQueue,
          identity: opts.identity,
          activities,
          dataConverter: temporalDataConverter(),
          interceptors: withChaosPoints(tracingWorkerInterceptors()),
          // one phone, one screen: activities on it never overlap
          maxConcurrentActivityTaskExecutions: 1,
          // a heartbeat (one per dump) reaches the server at least this often, and the server's
          // answer is what brings an operator's cancel to the running activity: within seconds,
          // not after the default throttle of most of the heartbeat timeout
          maxHeartbeatThrottleInterval: '2 seconds',
          shutdownGraceTime: '10 seconds',
        });
        if (stopping) break;
        const running = worker.run();
        opts.log.info({ taskQueue: opts.taskQueue }, 'device worker polling');
        await opts.onConnected(connection);
        markReady();
        await running;
      } catch (err) {
        if (!stopping) opts.log.warn({ err: describeError(err) }, 'device worker stopped; reconnecting in 2 s');
      } finally {
        const w = worker;
        worker = undefined;
        await opts.onDisconnecting();
        if (w && w.getState() === 'RUNNING') w.shutdown();
        await connection?.close().catch(() => undefined);
      }
      if (!stopping) await new Promise((r) => setTimeout(r, RECONNECT_DELAY_MS));
    }
  })();

  return {
    ready,
    async stop() {
      stopping = true;
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await loop;
    },
  };
}
