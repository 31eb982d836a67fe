import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  WorkflowExecutionAlreadyStartedError,
  type ScheduleDescription,
  type ScheduleHandle,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import { SYB_SYNC_MANUAL_WORKFLOW_ID, SYB_SYNC_SCHEDULE_ID } from '../../domain/syb';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import type { Logger } from '../../platform/logger';
import { conflict } from '../../domain/api-error';
import type { TemporalGateway } from '../temporal/gateway';
import type { SybService } from './account';
import type { sybSync } from '../../workflows/syb-sync';

const PAUSED_NOTE = 'paused: no SYB account (set it on 设置 → 顺运宝)';

/** What the code says the Schedule is; an existing one that differs is updated to it at start. */
const EVERY_MS = 10 * 60_000;
const SPEC = { intervals: [{ every: EVERY_MS }] };
// typed by the workflow (its arguments are checked against it); by name, since the admin never
// loads workflow code (docs/architecture.md "Starting a workflow")
const ACTION = {
  type: 'startWorkflow',
  workflowType: 'sybSync',
  taskQueue: ADMIN_TASK_QUEUE,
  workflowId: SYB_SYNC_SCHEDULE_ID,
  args: [],
} satisfies ScheduleOptionsStartWorkflowAction<typeof sybSync>;
const POLICIES = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: EVERY_MS };

/** True when the Schedule on the server runs what SPEC, ACTION and POLICIES say. */
function matchesCode(d: ScheduleDescription): boolean {
  const intervals = d.spec.intervals ?? [];
  const action = d.action.type === 'startWorkflow' ? d.action : undefined;
  return (
    intervals.length === 1 &&
    Number(intervals[0]?.every) === EVERY_MS &&
    !Number(intervals[0]?.offset ?? 0) &&
    (d.spec.calendars ?? []).length === 0 &&
    action?.workflowType === ACTION.workflowType &&
    action.taskQueue === ACTION.taskQueue &&
    d.policies.overlap === POLICIES.overlap &&
    Number(d.policies.catchupWindow) === POLICIES.catchupWindow
  );
}

/**
 * The Schedule `syb-sync`: every 10 minutes, overlap SKIP (a slow sync is never doubled),
 * paused while no SYB account is set, and triggered at once while no sync has ever run. Created
 * under a fixed id, so it exists exactly once however often the admin starts; an existing one
 * converges to this code's spec, action and policies (a deploy that changes them takes effect),
 * and its paused state to the account.
 */
export async function ensureSybSchedule(temporal: TemporalGateway, syb: SybService): Promise<void> {
  const client = await temporal.client();
  const paused = (await syb.account()) === null;
  const handle = client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID);
  try {
    await client.schedule.create({
      scheduleId: SYB_SYNC_SCHEDULE_ID,
      spec: SPEC,
      action: ACTION,
      policies: POLICIES,
      state: { paused, note: paused ? PAUSED_NOTE : 'running' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    const current = await handle.describe();
    if (!matchesCode(current))
      await handle.update((prev) => ({ ...prev, spec: SPEC, action: ACTION, policies: POLICIES }));
    if (current.state.paused !== paused) {
      if (paused) await handle.pause(PAUSED_NOTE);
      else await handle.unpause('SYB account set');
    }
  }
  // The first sync runs now, not ten minutes after start: 订单 would say 尚未同步 until then.
  if (!paused && (await neverSynced(syb))) await handle.trigger(ScheduleOverlapPolicy.SKIP);
}

/** No sync has ever finished, and none runs now. */
async function neverSynced(syb: SybService): Promise<boolean> {
  const state = await syb.db
    .selectFrom('syb_sync_state')
    .select(['last_synced_at', 'running'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return !state || (state.last_synced_at === null && state.running === 0);
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
 * 立即同步: the Schedule's own trigger (overlap SKIP), so a manual sync is one of the Schedule's
 * actions — never a second sync beside a running one — and its workflow id is the one the
 * Schedule gave it. Only before the Schedule exists (Temporal was down at the admin's start) is
 * a workflow started directly, under one fixed id.
 */
export async function triggerSybSync(temporal: TemporalGateway, syb: SybService): Promise<{ workflow_id: string }> {
  if ((await syb.account()) === null)
    throw conflict('SYB_NOT_CONFIGURED', 'set the SYB address, user name and password first');
  const client = await temporal.client();
  try {
    const handle = client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID);
    const before = await handle.describe();
    const running = before.info.runningActions[0];
    if (running) return { workflow_id: running.workflow.workflowId };
    await handle.trigger(ScheduleOverlapPolicy.SKIP);
    const started = await triggeredAction(handle, before.info.numActionsTaken);
    if (started) return { workflow_id: started };
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  try {
    const handle = await client.workflow.start<typeof sybSync>('sybSync', {
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

/**
 * The workflow the trigger started: the Schedule takes the action asynchronously, so its
 * description is read until the action count moves (running, or already finished); null when it
 * does not within a few seconds.
 */
async function triggeredAction(handle: ScheduleHandle, takenBefore: number): Promise<string | null> {
  for (let i = 0; i < 50; i++) {
    const d = await handle.describe();
    const running = d.info.runningActions[0];
    if (running) return running.workflow.workflowId;
    if (d.info.numActionsTaken > takenBefore) return d.info.recentActions.at(-1)?.action.workflow.workflowId ?? null;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}
