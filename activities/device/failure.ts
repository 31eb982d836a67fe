import { ApplicationFailure } from '@temporalio/common';
import { newCounters } from '../../device-worker/counters';
import { DeviceError, isDeviceError } from '../../device-worker/errors';
import type { DeviceCounters, DeviceFailureDetails, FinalPanelReading } from '../../domain/contracts/device-activities';

/**
 * A device failure as the workflow sees it: `type` is the DeviceError's code, unchanged, and it
 * is retryable exactly when domain/purchase/failures.ts says so. Anything else that escaped is
 * an ADB failure.
 */
export function toFailure(
  err: unknown,
  artifactPath: string | null,
  counters: DeviceCounters | null,
  reading: Partial<FinalPanelReading> | null = null,
): ApplicationFailure {
  const e = isDeviceError(err) ? err : new DeviceError('ADB_FAILED', (err as Error)?.message ?? String(err));
  const details: DeviceFailureDetails = {
    code: e.code,
    message: e.message,
    artifact_path: artifactPath,
    counters: counters ?? newCounters(),
    ...(reading ? { reading } : {}),
    ...(e.facts ? { facts: e.facts } : {}),
  };
  return ApplicationFailure.create({
    type: e.code,
    message: e.message,
    nonRetryable: !e.retryable,
    details: [details],
  });
}
