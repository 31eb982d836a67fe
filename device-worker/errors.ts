/**
 * Every failure of the device side carries a code the admin can show and a retryable flag the
 * workflow's retry policy acts on. Read-only steps retry transient faults (a lost ADB
 * connection, a screen that never settled); anything that says "the page is not what we
 * profiled" or "a person must look" is final, because repeating it cannot make it right.
 */
export const DEVICE_ERROR_CODES = {
  // final
  APP_VERSION_UNSUPPORTED: false,
  APP_NOT_INSTALLED: false,
  GOODS_DELISTED: false,
  PAGE_UNRECOGNIZED: false,
  PAGE_STRUCTURE_CHANGED: false,
  CAPTCHA_REQUIRED: false,
  INJECT_EVENTS_DENIED: false,
  ADB_SERIAL_INVALID: false,
  DEVICE_NOT_CLAIMED: false,
  INVALID_INPUT: false,
  // a purchase input the guard or the submission ledger refused: nothing was tapped
  TAP_REFUSED: false,
  SUBMIT_REFUSED: false,
  // transient
  ADB_DISCONNECTED: true,
  ADB_TIMEOUT: true,
  ADB_FAILED: true,
  SCREEN_TIMEOUT: true,
  UNEXPECTED_SCREEN: true,
  DEVICE_BUSY: true,
} as const;

export type DeviceErrorCode = keyof typeof DEVICE_ERROR_CODES;

export class DeviceError extends Error {
  override readonly name = 'DeviceError';
  readonly retryable: boolean;

  constructor(
    readonly code: DeviceErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.retryable = DEVICE_ERROR_CODES[code];
  }
}

export function isDeviceError(err: unknown): err is DeviceError {
  return err instanceof DeviceError;
}

/** Codes a workflow lists in `nonRetryableErrorTypes` (belt and braces to the failure flag). */
export const FINAL_DEVICE_ERROR_CODES = (Object.keys(DEVICE_ERROR_CODES) as DeviceErrorCode[]).filter((c) => !DEVICE_ERROR_CODES[c]);
