import type { ReasonCode } from './reasons';

/**
 * Every way a device activity can fail, as one code from the phone to the operator: the device
 * worker throws a `DeviceError` with the code, the activity turns it into an ApplicationFailure
 * whose `type` is the same code (retryable as this table says), and the workflow reads the
 * operator's reason (domain/purchase/reasons.ts) for it from this table too. Nothing on the way
 * renames it.
 */
export const DEVICE_FAILURE_CODES = [
  // the phone or its connection faltered: trying again may help
  'ADB_DISCONNECTED',
  'ADB_TIMEOUT',
  'ADB_FAILED',
  'SCREEN_TIMEOUT',
  'UNEXPECTED_SCREEN',
  'DEVICE_BUSY',
  // this phone cannot do it: trying again cannot help
  'APP_NOT_INSTALLED',
  'INJECT_EVENTS_DENIED',
  'ADB_SERIAL_INVALID',
  'DEVICE_NOT_CLAIMED',
  'INVALID_INPUT',
  // the purchase guard or the submission ledger refused an input: nothing was tapped
  'TAP_REFUSED',
  'SUBMIT_REFUSED',
  // the page is not what was profiled or authorised: a person must look
  'APP_VERSION_UNSUPPORTED',
  'PAGE_UNRECOGNIZED',
  'PAGE_STRUCTURE_CHANGED',
  'CAPTCHA_REQUIRED',
  'GOODS_DELISTED',
  'GOODS_MISMATCH',
  'OPTION_NOT_FOUND',
  'OPTION_AMBIGUOUS',
  'OPTION_UNAVAILABLE',
  'OPTION_READBACK_MISMATCH',
  'QUANTITY_READBACK_MISMATCH',
  'QUANTITY_OVER_STOCK',
  'PRICE_UNREADABLE',
  'PRICE_CHANGED',
  'GATE1_OVER_CAP',
  'GATE2_OVER_CAP',
  'GATE3_MISMATCH',
  'SUBMIT_CONTROL_NOT_UNIQUE',
  // uiautomator cannot read a screen that never goes idle (a countdown): nothing is decided unseen
  'HIERARCHY_UNAVAILABLE',
  // the real app interrupts: a page or an overlay a person must clear on the phone
  'LOGIN_REQUIRED',
  'RISK_FACE',
  'RISK_SMS',
  'NETWORK_ERROR',
  'APP_UPDATE_PROMPT',
  'SOLD_OUT',
  'ADDRESS_MISSING',
  'UNKNOWN_OVERLAY',
  // a person took the phone from the admin: automation stops before its next act
  'HELD_BY_OPERATOR',
] as const;
export type DeviceFailureCode = (typeof DEVICE_FAILURE_CODES)[number];

export interface DeviceFailureRule {
  /** true: Temporal retries the activity; false: a non-retryable ApplicationFailure */
  retryable: boolean;
  /** why the purchase stopped, as the operator reads it, when this ends a step before the fence */
  reason: ReasonCode;
}

const fault = { retryable: true, reason: 'DEVICE_ERROR' } as const;
const broken = { retryable: false, reason: 'DEVICE_ERROR' } as const;
const stop = <R extends ReasonCode>(reason: R) => ({ retryable: false, reason }) as const;

export const DEVICE_FAILURES: Record<DeviceFailureCode, DeviceFailureRule> = {
  ADB_DISCONNECTED: fault,
  ADB_TIMEOUT: fault,
  ADB_FAILED: fault,
  SCREEN_TIMEOUT: fault,
  UNEXPECTED_SCREEN: fault,
  DEVICE_BUSY: fault,
  APP_NOT_INSTALLED: broken,
  INJECT_EVENTS_DENIED: broken,
  ADB_SERIAL_INVALID: broken,
  DEVICE_NOT_CLAIMED: broken,
  INVALID_INPUT: broken,
  // before the fence only a tap the guard could not place lands here: the page was not as profiled
  TAP_REFUSED: stop('PAGE_UNRECOGNIZED'),
  SUBMIT_REFUSED: broken,
  APP_VERSION_UNSUPPORTED: stop('APP_VERSION_UNSUPPORTED'),
  PAGE_UNRECOGNIZED: stop('PAGE_UNRECOGNIZED'),
  PAGE_STRUCTURE_CHANGED: stop('PAGE_UNRECOGNIZED'),
  CAPTCHA_REQUIRED: stop('CAPTCHA_REQUIRED'),
  GOODS_DELISTED: stop('GOODS_DELISTED'),
  GOODS_MISMATCH: stop('GOODS_MISMATCH'),
  OPTION_NOT_FOUND: stop('OPTION_NOT_FOUND'),
  OPTION_AMBIGUOUS: stop('OPTION_AMBIGUOUS'),
  OPTION_UNAVAILABLE: stop('OPTION_UNAVAILABLE'),
  OPTION_READBACK_MISMATCH: stop('OPTION_READBACK_MISMATCH'),
  QUANTITY_READBACK_MISMATCH: stop('QUANTITY_READBACK_MISMATCH'),
  QUANTITY_OVER_STOCK: stop('QUANTITY_OVER_STOCK'),
  PRICE_UNREADABLE: stop('PRICE_UNREADABLE'),
  PRICE_CHANGED: stop('PRICE_CHANGED'),
  GATE1_OVER_CAP: stop('GATE1_OVER_CAP'),
  GATE2_OVER_CAP: stop('GATE2_OVER_CAP'),
  GATE3_MISMATCH: stop('GATE3_MISMATCH'),
  SUBMIT_CONTROL_NOT_UNIQUE: stop('SUBMIT_CONTROL_NOT_UNIQUE'),
  HIERARCHY_UNAVAILABLE: stop('HIERARCHY_UNAVAILABLE'),
  LOGIN_REQUIRED: stop('LOGIN_REQUIRED'),
  RISK_FACE: stop('RISK_FACE'),
  RISK_SMS: stop('RISK_SMS'),
  NETWORK_ERROR: stop('NETWORK_ERROR'),
  APP_UPDATE_PROMPT: stop('APP_UPDATE_PROMPT'),
  SOLD_OUT: stop('SOLD_OUT'),
  ADDRESS_MISSING: stop('ADDRESS_MISSING'),
  UNKNOWN_OVERLAY: stop('UNKNOWN_OVERLAY'),
  HELD_BY_OPERATOR: stop('HELD_BY_OPERATOR'),
};

export function isDeviceFailureCode(code: string): code is DeviceFailureCode {
  return Object.prototype.hasOwnProperty.call(DEVICE_FAILURES, code);
}

/**
 * The operator's reason for a failed device step before the fence. A failure that carries no
 * device code (a timeout, a lost worker) is a device error like any other fault.
 */
export function reasonForDeviceFailure(code: string | null | undefined): ReasonCode {
  return code && isDeviceFailureCode(code) ? DEVICE_FAILURES[code].reason : 'DEVICE_ERROR';
}

/** The `nonRetryableErrorTypes` of every device activity: the codes retrying cannot fix. */
export const NON_RETRYABLE_DEVICE_FAILURES: readonly DeviceFailureCode[] = DEVICE_FAILURE_CODES.filter(
  (c) => !DEVICE_FAILURES[c].retryable,
);
