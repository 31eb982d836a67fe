import Database from 'better-sqlite3';
import { Client, Connection } from '@temporalio/client';
import { ADMIN_TASK_QUEUE, DEVICES_TASK_QUEUE } from '../domain/task-queues';
import { temporalDataConverter } from '../temporal/codec';

/**
 * Where a purchase's time went, read from its Temporal history: on a phone, or waiting on the
 * admin while it held one (bench/orchestration.ts turns these into its figures).
 */
export interface WorkflowTimes {
  workflowId: string;
  startMs: number;
  closeMs: number;
  /** time spent inside activities on the `devices` and `device/<id>` queues (started → closed) */
  deviceMs: number;
  /** the device worker that took the claim (its identity), and when the claim started and the release closed */
  phone: string;
  claimStartedMs: number;
  releasedMs: number;
  /**
   * While the phone was held (claim started → release closed): time from a workflow task being
   * scheduled to its completion (the admin worker's turn), and from an admin activity being
   * scheduled to its completion — the non-device part of the phone's time.
   */
  heldWorkflowTaskMs: number;
  heldAdminActivityMs: number;
  /** while held, from a phone activity being scheduled to a device worker starting it (matching's hand-over) */
  heldDeviceQueueMs: number;
}

type HistoryEvent = NonNullable<
  Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>['events']
>[number];

type Timestamp = { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined;
const ms = (t: Timestamp) =>
  t
    ? Number(typeof t.seconds === 'number' ? t.seconds : (t.seconds?.toNumber() ?? 0)) * 1000 + (t.nanos ?? 0) / 1e6
    : 0;

/** Reads each purchase's workflow history: when it started and closed, and its time on a phone. */
export async function workflowTimes(
  temporal: { address: string; namespace: string },
  adminDbFile: string,
  taskIds: readonly string[],
): Promise<WorkflowTimes[]> {
  const db = new Database(adminDbFile, { readonly: true, fileMustExist: true });
  const ids = taskIds.map(
    (id) =>
      (
        db
          .prepare('SELECT workflow_id FROM order_authorizations WHERE task_id = ? ORDER BY task_version DESC LIMIT 1')
          .get(id) as { workflow_id: string }
      ).workflow_id,
  );
  db.close();
  const connection = await Connection.connect({ address: temporal.address });
  try {
    const client = new Client({ dataConverter: temporalDataConverter(), connection, namespace: temporal.namespace });
    const out: WorkflowTimes[] = [];
    for (const workflowId of ids) {
      // the task turns terminal before the workflow's last steps (the phone's release): wait for the close
      await client.workflow.getHandle(workflowId).result();
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      out.push(timesOf(workflowId, history.events ?? []));
    }
    return out;
  } finally {
    await connection.close();
  }
}

/** One history's times, in one pass over its events. */
function timesOf(workflowId: string, events: readonly HistoryEvent[]): WorkflowTimes {
  const queueOf = new Map<number, string>();
  const typeOf = new Map<number, string>();
  const scheduledAt = new Map<number, number>();
  const startedAt = new Map<number, number>();
  const t: WorkflowTimes = {
    workflowId,
    startMs: ms(events[0]?.eventTime),
    closeMs: ms(events.at(-1)?.eventTime),
    deviceMs: 0,
    phone: '',
    claimStartedMs: 0,
    releasedMs: 0,
    heldWorkflowTaskMs: 0,
    heldAdminActivityMs: 0,
    heldDeviceQueueMs: 0,
  };
  const holding = (at: number) => t.claimStartedMs > 0 && t.releasedMs === 0 && at >= t.claimStartedMs;
  for (const e of events) {
    const id = Number(e.eventId);
    const at = ms(e.eventTime);
    if (e.workflowTaskScheduledEventAttributes) scheduledAt.set(id, at);
    if (e.workflowTaskCompletedEventAttributes) {
      const scheduled = scheduledAt.get(Number(e.workflowTaskCompletedEventAttributes.scheduledEventId)) ?? at;
      if (holding(scheduled)) t.heldWorkflowTaskMs += at - scheduled;
    }
    if (e.activityTaskScheduledEventAttributes) {
      queueOf.set(id, e.activityTaskScheduledEventAttributes.taskQueue?.name ?? '');
      typeOf.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? '');
      scheduledAt.set(id, at);
    }
    const started = e.activityTaskStartedEventAttributes;
    if (started) {
      startedAt.set(Number(started.scheduledEventId), at);
      const queue = queueOf.get(Number(started.scheduledEventId)) ?? '';
      const scheduled = scheduledAt.get(Number(started.scheduledEventId)) ?? at;
      if (queue.startsWith('device/') && holding(scheduled)) t.heldDeviceQueueMs += at - scheduled;
      if (typeOf.get(Number(started.scheduledEventId)) === 'claimDevice') {
        t.claimStartedMs = at;
        t.phone = started.identity ?? '';
      }
    }
    const closed =
      e.activityTaskCompletedEventAttributes ??
      e.activityTaskFailedEventAttributes ??
      e.activityTaskTimedOutEventAttributes ??
      e.activityTaskCanceledEventAttributes;
    if (!closed) continue;
    const scheduled = Number(closed.scheduledEventId);
    const queue = queueOf.get(scheduled) ?? '';
    const began = startedAt.get(scheduled);
    if (began !== undefined && (queue === DEVICES_TASK_QUEUE || queue.startsWith('device/'))) t.deviceMs += at - began;
    if (queue === ADMIN_TASK_QUEUE && holding(scheduledAt.get(scheduled) ?? 0))
      t.heldAdminActivityMs += at - (scheduledAt.get(scheduled) ?? at);
    if (typeOf.get(scheduled) === 'releaseDevice' && e.activityTaskCompletedEventAttributes) t.releasedMs = at;
  }
  return t;
}

/** Per phone, the time from one release closing to the next claim starting on it: the hand-over. */
export function handOverGaps(times: readonly WorkflowTimes[]): number[] {
  const byPhone = new Map<string, WorkflowTimes[]>();
  for (const t of times) if (t.phone) byPhone.set(t.phone, [...(byPhone.get(t.phone) ?? []), t]);
  const gaps: number[] = [];
  for (const list of byPhone.values()) {
    list.sort((a, b) => a.claimStartedMs - b.claimStartedMs);
    for (let i = 1; i < list.length; i++)
      if (list[i - 1]!.releasedMs > 0) gaps.push(list[i]!.claimStartedMs - list[i - 1]!.releasedMs);
  }
  return gaps;
}

/** Per phone, from the batch's first start to its first claim starting: what the batch's start costs a phone. */
export function firstClaimWaits(times: readonly WorkflowTimes[]): number[] {
  const batchStart = Math.min(...times.map((t) => t.startMs));
  const first = new Map<string, number>();
  for (const t of times) if (t.phone) first.set(t.phone, Math.min(first.get(t.phone) ?? Infinity, t.claimStartedMs));
  return [...first.values()].map((at) => at - batchStart);
}

/**
 * Per phone, the time it was in the batch: from the batch's first start to the release that let
 * the phone go for the last time. A phone that has finished its share and waits for the others
 * has no work left, which is not time spent on the admin.
 */
export function phoneSpans(times: readonly WorkflowTimes[]): number[] {
  const batchStart = Math.min(...times.map((t) => t.startMs));
  const lastRelease = new Map<string, number>();
  for (const t of times)
    if (t.phone) lastRelease.set(t.phone, Math.max(lastRelease.get(t.phone) ?? 0, t.releasedMs || t.closeMs));
  return [...lastRelease.values()].map((end) => end - batchStart);
}
