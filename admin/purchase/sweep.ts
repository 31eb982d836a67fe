import type { Logger } from '../../platform/logger';
import type { AdminDb } from '../db/database';
import type { TemporalGateway } from '../temporal/gateway';
import { startAuthorizedWorkflow, startsUnderWay } from './start';

const SWEEP_INTERVAL_MS = 30_000;

/**
 * Starts every authorised task whose workflow was not started (admin crashed after the commit,
 * Temporal was down). The workflow id makes a second start a no-op, so sweeping is always safe.
 */
export async function sweepUnstartedPurchases(deps: {
  db: AdminDb;
  temporal: TemporalGateway;
  log: Logger;
}): Promise<number> {
  const pending = await deps.db
    .selectFrom('order_authorizations')
    .select(['id', 'task_id'])
    .where('workflow_started_at', 'is', null)
    .where('status', '=', 'ACTIVE')
    .orderBy('created_at')
    .limit(200)
    .execute();
  let started = 0;
  for (const auth of pending) {
    if (startsUnderWay.has(auth.id)) continue; // its batch is starting it
    try {
      await startAuthorizedWorkflow(deps, auth.id);
      started++;
    } catch (err) {
      deps.log.warn(
        { err: (err as Error).message, task: auth.task_id },
        'sweep could not start a purchase workflow yet',
      );
      break; // Temporal is likely down: try the rest next round
    }
  }
  if (started > 0) deps.log.info({ started }, 'sweep started purchase workflows');
  return started;
}

export function runPurchaseSweep(
  deps: { db: AdminDb; temporal: TemporalGateway; log: Logger },
  intervalMs = SWEEP_INTERVAL_MS,
): { stop(): void } {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    sweepUnstartedPurchases(deps)
      .catch((err: Error) => deps.log.warn({ err: err.message }, 'purchase sweep failed'))
      .finally(() => (running = false));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
