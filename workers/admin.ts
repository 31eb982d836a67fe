import { NativeConnection, Worker } from '@temporalio/worker';
import { createAdminActivities } from '../activities/admin';
import { ADMIN_TASK_QUEUE } from '../domain/task-queues';
import { describeError } from '../platform/errors';
import { temporalDataConverter } from '../temporal/codec';
import { temporalConnectOptions } from '../temporal/connection';
import { tracingSinks, tracingWorkerInterceptors } from '../temporal/tracing';
import { withChaosPoints } from '../temporal/chaos';
import {
  startAdmin as startAdminServer,
  type AdminHandle,
  type AdminOptions,
  type AdminWorkerDeps,
  type AdminWorkerHandle,
} from '../admin/server';
import { loadWorkflowBundle, type WorkflowBundleFile } from './workflow-bundle';

/**
 * The admin process with its worker: admin/server.ts's `startAdmin`, handed `runAdminWorker`
 * unless the caller brings its own. Every entry and test that starts an admin comes through here.
 */
export function startAdmin(opts: AdminOptions): Promise<AdminHandle> {
  return startAdminServer({ ...opts, worker: opts.worker ?? runAdminWorker });
}

/**
 * Runs the `admin` queue worker inside the admin process (the single writer of the admin DB).
 * Temporal may be down at start or go away later: the loop keeps reconnecting rather than
 * taking the HTTP side down with it. The workflow bundle is loaded once, before the loop: every
 * reconnect runs the same code under the same build id (docs/versioning.md).
 */
export function runAdminWorker(opts: AdminWorkerDeps): AdminWorkerHandle {
  let stopping = false;
  let current: Worker | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const loop = (async () => {
    let bundle: WorkflowBundleFile;
    try {
      bundle = loadWorkflowBundle(opts.workflowBundlePath);
    } catch (err) {
      // workers/main-admin.ts checks this before it starts; here (an embedding caller) say so once and keep HTTP up
      opts.log.error({ err: (err as Error).message }, 'no workflow bundle: the admin worker does not run');
      return;
    }
    while (!stopping) {
      let connection: NativeConnection | undefined;
      try {
        connection = await NativeConnection.connect(temporalConnectOptions(opts.temporal));
        current = await Worker.create({
          connection,
          namespace: opts.temporal.namespace,
          taskQueue: ADMIN_TASK_QUEUE,
          activities: createAdminActivities(opts.db, opts.syb),
          workflowBundle: { code: bundle.code },
          dataConverter: temporalDataConverter(),
          interceptors: withChaosPoints(tracingWorkerInterceptors()),
          // what the bundle's tracing interceptor calls (workflows/tracing.ts); records nothing with tracing off
          sinks: tracingSinks(),
          // identification only (Web UI, logs): versioning rules would strand the open purchases
          buildId: bundle.buildId,
          useVersioning: false,
        });
        if (stopping) break;
        opts.log.info(
          { taskQueue: ADMIN_TASK_QUEUE, namespace: opts.temporal.namespace, buildId: bundle.buildId },
          'admin worker polling',
        );
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
