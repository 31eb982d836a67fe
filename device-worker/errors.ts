import { DEVICE_FAILURES, type DeviceFailureCode } from '../domain/purchase/failures';
import type { ReasonCode } from '../domain/purchase/reasons';
import type { StopFacts } from '../domain/purchase/stop-facts';

/**
 * Every failure of the device side — a phone fault or a page a person must look at — is a
 * DeviceError with a code from domain/purchase/failures.ts, which also says whether retrying can
 * help. The code travels unchanged: it becomes the ApplicationFailure's type and, for a purchase,
 * the operator's reason.
 */
export class DeviceError extends Error {
  override readonly name: string = 'DeviceError';
  readonly retryable: boolean;
  /** the operator's reason when this ends a purchase step before the fence */
  readonly reason: ReasonCode;

  constructor(
    readonly code: DeviceFailureCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** what the phone read, for the operator's sentence (domain/purchase/stop-facts.ts); the message stays for engineers */
    readonly facts: StopFacts | null = null,
  ) {
    super(message);
    this.retryable = DEVICE_FAILURES[code].retryable;
    this.reason = DEVICE_FAILURES[code].reason;
  }
}

export function isDeviceError(err: unknown): err is DeviceError {
  return err instanceof DeviceError;
}
