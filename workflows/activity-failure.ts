import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import type { DeviceFailureDetails, FinalPanelReading } from '../domain/contracts/device-activities';
import type { StopFacts } from '../domain/purchase/stop-facts';

/** What a workflow reads from a failed activity, in one place for every workflow. */
export interface FailureFacts {
  /** the ApplicationFailure's type: a device failure code (domain/purchase/failures.ts) or an admin code */
  type: string | null;
  /** set when the activity timed out (START_TO_CLOSE, SCHEDULE_TO_START, HEARTBEAT, …) */
  timeoutType: string | null;
  message: string;
  /** what the phone host kept of the failure (a screenshot and dump), when it was a phone */
  artifactPath: string | null;
  reading: Partial<FinalPanelReading> | null;
  /** what the phone read when it stopped, passed on unread: the admin validates it when it records the stop */
  stopFacts: StopFacts | null;
}

/** Looks through Temporal's ActivityFailure wrapper to the failure the activity threw. */
export function describeFailure(err: unknown): FailureFacts {
  const cause = err instanceof ActivityFailure && err.cause ? err.cause : err;
  const details =
    cause instanceof ApplicationFailure ? (cause.details?.[0] as Partial<DeviceFailureDetails> | undefined) : undefined;
  return {
    type: cause instanceof ApplicationFailure && cause.type ? cause.type : null,
    timeoutType: cause instanceof TimeoutFailure ? String(cause.timeoutType) : null,
    message: cause instanceof Error ? cause.message : String(cause),
    artifactPath: details?.artifact_path ?? null,
    reading: details?.reading ?? null,
    stopFacts: details?.facts ?? null,
  };
}
