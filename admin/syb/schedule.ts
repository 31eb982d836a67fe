import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  WorkflowExecutionAlreadyStartedError,
} from '@temporalio/client';
import { SYB_SYNC_MANUAL_WORKFLOW_ID, SYB_SYNC_SCHEDULE_ID } from '../../domain/syb';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import type { Logger } from '../../platform/logger';
import { conflict } from '../http/errors';
import type { TemporalGateway } from '../temporal/gateway';
import type { SybService } from './account';

const PAUSED_NOTE = 'paused: no SYB account (set it on 设置 → 顺运宝)';

/**
 * The Schedule `syb-sync`: every 10 minutes, overlap SKIP (a slow sync is never doubled),
 * paused while no SYB account is set. Created under a fixed id, so it exists exactly once
 * however often the admin starts; an existing one only has its paused state brought in line.
 */
export async function ensureSybSchedule(temporal: TemporalGateway, syb: SybService): Promise<void> {
  const client = await temporal.client();
  const paused = (await syb.account()) === null;
  try {
    await client.schedule.create({
      scheduleId: SYB_SYNC_SCHEDULE_ID,
      spec: { intervals: [{ every: '10 minutes' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'sybSync',
        taskQueue: ADMIN_TASK_QUEUE,
        workflowId: SYB_SYNC_SCHEDULE_ID,
        args: [],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
      state: { paused, note: paused ? PAUSED_NOTE : 'running' },
    });
    return;
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  const handle = client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID);
  const current = await handle.describe();
  if (current.state.paused === paused) return;
  if (paused) await handle.pause(PAUSED_NOTE);
  else await handle.unpause('SYB account set');
}

/**
 * Keeps trying until the Schedule is in place: Temporal may be down when the admin starts, and
 * the admin must come up anyway (it says so on /healthz).
 */
export function keepSybSchedule(
  temporal: TemporalGateway,
  syb: SybService,
  log: Logger,
  retryMs = 5_000,
): { stop(): void; ready: Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const attempt = () => {
    if (stopped) return;
    ensureSybSchedule(temporal, syb).then(markReady, (err: unknown) => {
      log.warn({ err: (err as Error).message }, 'SYB schedule not in place yet; retrying');
      if (!stopped) timer = setTimeout(attempt, retryMs);
    });
  };
  attempt();
  return {
    ready,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * 立即同步: joins a sync already running (scheduled or manual) instead of starting a second one.
 */
export async function triggerSybSync(temporal: TemporalGateway, syb: SybService): Promise<{ workflow_id: string }> {
  if ((await syb.account()) === null)
    throw conflict('SYB_NOT_CONFIGURED', 'set the SYB address, user name and password first');
  const client = await temporal.client();
  try {
    const running = (await client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID).describe()).info.runningActions[0];
    if (running) return { workflow_id: running.workflow.workflowId };
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  try {
    const handle = await client.workflow.start('sybSync', {
      workflowId: SYB_SYNC_MANUAL_WORKFLOW_ID,
      taskQueue: ADMIN_TASK_QUEUE,
      args: [],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return { workflow_id: handle.workflowId };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { workflow_id: SYB_SYNC_MANUAL_WORKFLOW_ID };
    throw err;
  }
}
