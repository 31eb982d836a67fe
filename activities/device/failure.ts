import { ApplicationFailure } from '@temporalio/common';
import { newCounters, type DeviceCounters } from '../../device-worker/counters';
import { DeviceError, isDeviceError } from '../../device-worker/errors';
import type { DeviceFailureDetails } from './types';

/** A device error as the workflow sees it: `type` = code, retryable as the code says. */
export function toFailure(err: unknown, artifactPath: string | null, counters: DeviceCounters | null): ApplicationFailure {
  const e = isDeviceError(err) ? err : new DeviceError('ADB_FAILED', (err as Error)?.message ?? String(err));
  const details: DeviceFailureDetails = { code: e.code, message: e.message, artifact_path: artifactPath, counters: counters ?? newCounters() };
  return ApplicationFailure.create({ type: e.code, message: e.message, nonRetryable: !e.retryable, details: [details] });
}
