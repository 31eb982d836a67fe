import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { FinalPanelReading, Observation } from '../../domain/contracts/device-activities';
import type { ReasonCode } from '../../domain/purchase/reasons';
import type { StopFacts } from '../../domain/purchase/stop-facts';
import type { OperatorRef } from '../../domain/purchase/workflow-types';
import { describeFailure } from '../activity-failure';

/** A step's outcome: on, or stopped with the operator's reason. */
export type Step<T> = ({ ok: true } & T) | { ok: false; reason: ReasonCode; detail: string; facts?: StopFacts };

/** Histories recorded while a stop came back as a result, not as a failure, still replay. */
export interface RecordedPrepareStop {
  ok: false;
  reason: ReasonCode;
  detail: string;
  reading: Partial<FinalPanelReading>;
  artifactPath: string | null;
}

/** Thrown by any step once the operator's cancel was accepted: no later step may move the task on. */
export class CanceledByOperator extends Error {}

/**
 * A failure no retry heals: an admin activity's non-retryable error (its retries are unlimited)
 * or a device failure that escaped its step. Anything else is a bug in workflow code, which
 * fails the workflow task (retried on the next deploy), not the purchase.
 */
export function isLasting(err: unknown): boolean {
  return err instanceof ActivityFailure || err instanceof ApplicationFailure;
}

export function reasonForLastingError(err: unknown): ReasonCode {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure && cause.type === 'DEVICE_REVOKED'
    ? 'DEVICE_REVOKED'
    : 'ADMIN_STEP_FAILED';
}

/**
 * A check after the tap is the one captcha code, CAPTCHA_REQUIRED (the task's submission tells it
 * from the stop before the fence). Only the reason code the admin records changes, no command, so
 * histories recorded with the older CAPTCHA_AFTER_SUBMIT replay; the admin reads both spellings.
 */
export function afterSubmitReason(seen: Observation | null): ReasonCode {
  if (seen?.outcome === 'payment_handoff') return 'PAYMENT_HANDOFF';
  if (seen?.outcome === 'captcha') return 'CAPTCHA_REQUIRED';
  return 'SUBMIT_OUTCOME_UNKNOWN';
}

/**
 * A failed device activity as the device worker described it: its code (the failure's type),
 * the message, where the artifacts are and what was read. Without a device code (a timeout, a
 * lost worker) it is DEVICE_ERROR.
 */
export function deviceFailure(err: unknown): {
  code: string;
  detail: string;
  artifactPath: string | null;
  reading: Partial<FinalPanelReading> | null;
  facts: StopFacts | null;
} {
  const f = describeFailure(err);
  return {
    code: f.type ?? 'DEVICE_ERROR',
    detail: f.message,
    artifactPath: f.artifactPath,
    reading: f.reading,
    facts: f.stopFacts,
  };
}

export const describe = (err: unknown): string => describeFailure(err).message;

/** The operator as an audit row names them. */
export const who = (op: OperatorRef): { actor: string; requestId?: string } => ({
  actor: op.actor,
  ...(op.requestId ? { requestId: op.requestId } : {}),
});
