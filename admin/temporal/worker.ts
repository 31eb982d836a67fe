import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createAdminActivities } from '../../activities/admin';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import type { AdminDb } from '../db/database';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { temporalConnectOptions } from '../../temporal/connection';
import type { TemporalSettings } from './gateway';

// Resolved, not spelled out: `index.ts` under tsx, `index.js` in a compiled build.
export const WORKFLOWS_PATH = require.resolve('../../workflows');

export interface AdminWorkerOptions {
  temporal: TemporalSettings;
  db: AdminDb;
  log: Logger;
  /** a pre-built bundle (tests build one per run); otherwise the workflows are bundled at start */
  workflowBundlePath?: string;
}

export interface AdminWorkerHandle {
  /** resolves when the first worker is polling */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs the `admin` queue worker inside the admin process (the single writer of the admin DB).
 * Temporal may be down at start or go away later: the loop keeps reconnecting rather than
 * taking the HTTP side down with it.
 */
export function runAdminWorker(opts: AdminWorkerOptions): AdminWorkerHandle {
  let stopping = false;
  let current: Worker | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const workflowSource: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> = opts.workflowBundlePath
    ? { workflowBundle: { codePath: opts.workflowBundlePath } }
    : { workflowsPath: WORKFLOWS_PATH };

  const loop = (async () => {
    while (!stopping) {
      let connection: NativeConnection | undefined;
      try {
        connection = await NativeConnection.connect(temporalConnectOptions(opts.temporal));
        current = await Worker.create({
          connection,
          namespace: opts.temporal.namespace,
          taskQueue: ADMIN_TASK_QUEUE,
          activities: createAdminActivities(opts.db),
          ...workflowSource,
        });
        if (stopping) break;
        opts.log.info({ taskQueue: ADMIN_TASK_QUEUE, namespace: opts.temporal.namespace }, 'admin worker polling');
        const running = current.run();
        markReady();
        await running;
      } catch (err) {
        if (!stopping) opts.log.warn({ err: describeError(err) }, 'admin worker stopped; reconnecting in 2 s');
      } finally {
        current = undefined;
        await connection?.close().catch(() => undefined);
      }
      if (!stopping) await new Promise((r) => setTimeout(r, 2_000));
    }
  })();

  return {
    ready,
    async stop() {
      stopping = true;
      if (current && current.getState() === 'RUNNING') current.shutdown();
      await loop;
    },
  };
}
