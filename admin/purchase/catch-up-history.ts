import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { optionalTsToDate } from '@temporalio/common/lib/time';
import type { PurchaseWorkflowInput } from '../../domain/purchase/workflow-types';
import { toUtcTimestamp } from '../../domain/time';
import { upgradePurchaseInput } from '../../migrations/payloads/purchase-input';
import { decryptHistoryPayloads } from '../../temporal/codec/history';
import type { AdminWrite } from './catch-up-rules';

/** The admin activities whose writes a purchase's history replays into a restored admin DB. */
const ADMIN_WRITES = new Set([
  'beginOrdering',
  'beginPurchaseAttempt',
  'recordPurchaseStatus',
  'recordAttemptProgress',
  'createSubmissionFence',
  'abandonUntappedFence',
  'recordSubmissionTapped',
  'recordSubmissionOutcome',
  'savePurchaseResult',
  // not an admin write: the phone it names is the one every later write names
  'claimDevice',
]);

/** The local activity's marker (the SDK's name): the held phone's first write runs as one. */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

export interface PurchaseHistory {
  input: PurchaseWorkflowInput;
  /** UTC, when the workflow started: the authorization's start as far as Temporal knows */
  startedAt: string;
  writes: AdminWrite[];
}

type Payloads = { payloads?: Payload[] | null } | null | undefined;

function first(p: Payloads): unknown {
  const payload = p?.payloads?.[0];
  return payload ? defaultPayloadConverter.fromPayload(payload) : undefined;
}

function utc(ts: Parameters<typeof optionalTsToDate>[0]): string {
  return toUtcTimestamp(optionalTsToDate(ts) ?? new Date());
}

/**
 * One purchase's input and the admin writes that completed, from its history decoded by the
 * project's data converter (temporal/codec). Only completed activities count: one that failed
 * wrote nothing the workflow relied on. Read-only: nothing is sent to the workflow.
 */
export async function readPurchaseHistory(
  client: Client,
  workflowId: string,
  runId?: string,
): Promise<PurchaseHistory> {
  const history = await decryptHistoryPayloads(await client.workflow.getHandle(workflowId, runId).fetchHistory());
  const events = history.events ?? [];
  const started = events[0]?.workflowExecutionStartedEventAttributes;
  if (!started) throw new Error(`${workflowId}: history has no start event`);
  const input = upgradePurchaseInput(first(started.input) as PurchaseWorkflowInput);
  const scheduled = new Map<string, { name: string; input: unknown }>();
  const writes: AdminWrite[] = [];
  for (const e of events) {
    const id = String(e.eventId);
    const s = e.activityTaskScheduledEventAttributes;
    if (s && ADMIN_WRITES.has(s.activityType?.name ?? '')) {
      scheduled.set(id, { name: s.activityType!.name!, input: first(s.input) });
      continue;
    }
    const done = e.activityTaskCompletedEventAttributes;
    if (done) {
      const what = scheduled.get(String(done.scheduledEventId));
      if (what) writes.push({ ...what, result: first(done.result), at: utc(e.eventTime) });
      continue;
    }
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName === LOCAL_ACTIVITY_MARKER && marker.details?.result) {
      const data = first(marker.details.data) as { activity_type?: string } | undefined;
      const name = data?.activity_type ?? '';
      if (ADMIN_WRITES.has(name))
        writes.push({ name, input: null, result: first(marker.details.result), at: utc(e.eventTime) });
    }
  }
  return { input, startedAt: utc(events[0]!.eventTime), writes };
}
