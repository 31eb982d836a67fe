import {
  DEVICE_FAILURE_CODES,
  DEVICE_FAILURES,
  NON_RETRYABLE_DEVICE_FAILURES,
  reasonForDeviceFailure,
} from './failures';
import { REASONS, canonicalReason, isReasonCode, reasonInfo } from './reasons';

describe('device failure table', () => {
  it('has exactly one row for every code, each with a known reason and a retry flag', () => {
    expect(Object.keys(DEVICE_FAILURES).sort()).toEqual([...DEVICE_FAILURE_CODES].sort());
    expect(new Set(DEVICE_FAILURE_CODES).size).toBe(DEVICE_FAILURE_CODES.length);
    for (const code of DEVICE_FAILURE_CODES) {
      const row = DEVICE_FAILURES[code];
      expect({ code, retryable: typeof row.retryable, known: isReasonCode(row.reason) }).toEqual({
        code,
        retryable: 'boolean',
        known: true,
      });
    }
  });

  it('a retryable failure is a phone fault, never a stop a person must look at', () => {
    for (const code of DEVICE_FAILURE_CODES.filter((c) => DEVICE_FAILURES[c].retryable))
      expect({ code, reason: DEVICE_FAILURES[code].reason }).toEqual({ code, reason: 'DEVICE_ERROR' });
  });

  it('the workflow gets its non-retryable list from the table', () => {
    expect(NON_RETRYABLE_DEVICE_FAILURES).toEqual(DEVICE_FAILURE_CODES.filter((c) => !DEVICE_FAILURES[c].retryable));
    expect(NON_RETRYABLE_DEVICE_FAILURES).toEqual(
      expect.arrayContaining([
        'CAPTCHA_REQUIRED',
        'APP_VERSION_UNSUPPORTED',
        'GOODS_DELISTED',
        'DEVICE_NOT_CLAIMED',
        'PAGE_UNRECOGNIZED',
      ]),
    );
    expect(NON_RETRYABLE_DEVICE_FAILURES).not.toContain('ADB_DISCONNECTED');
    for (const type of NON_RETRYABLE_DEVICE_FAILURES) expect(Object.keys(DEVICE_FAILURES)).toContain(type);
  });

  it('each interruption of the real app is its own stop, same code on the phone and for the operator', () => {
    const own = [
      'LOGIN_REQUIRED',
      'CAPTCHA_REQUIRED',
      'RISK_FACE',
      'RISK_SMS',
      'NETWORK_ERROR',
      'APP_UPDATE_PROMPT',
      'SOLD_OUT',
      'ADDRESS_MISSING',
      'UNKNOWN_OVERLAY',
    ] as const;
    for (const code of own) {
      expect(reasonForDeviceFailure(code)).toBe(code);
      expect(NON_RETRYABLE_DEVICE_FAILURES).toContain(code);
      expect(REASONS[code].zh.length).toBeGreaterThan(0);
    }
    expect(REASONS.CAPTCHA_REQUIRED.zh).toContain('验证码');
    // tasks stopped under the older spellings keep their reason readable, as the one code
    expect(reasonInfo('CAPTCHA')).toEqual(REASONS.CAPTCHA_REQUIRED);
    expect(canonicalReason('CAPTCHA')).toBe('CAPTCHA_REQUIRED');
  });

  it('a screen uiautomator cannot read is a stop for a person, never retried, naming the reading agent', () => {
    expect(reasonForDeviceFailure('HIERARCHY_UNAVAILABLE')).toBe('HIERARCHY_UNAVAILABLE');
    expect(NON_RETRYABLE_DEVICE_FAILURES).toContain('HIERARCHY_UNAVAILABLE');
    expect(REASONS.HIERARCHY_UNAVAILABLE.zh).toContain('未点击');
    expect(REASONS.HIERARCHY_UNAVAILABLE.next).toContain('UiAutomator2');
  });

  it('one captcha code before the fence and after the tap; after the tap it says to reconcile, never to reset', () => {
    expect(canonicalReason('CAPTCHA_AFTER_SUBMIT')).toBe('CAPTCHA_REQUIRED');
    const after = reasonInfo('CAPTCHA_REQUIRED', true);
    expect(after.zh).toContain('提交后');
    expect(after.next).toContain('核对');
    expect(after.next).not.toContain('重置');
    expect(reasonInfo('CAPTCHA_AFTER_SUBMIT')).toEqual(after);
    expect(reasonInfo('CAPTCHA_REQUIRED').next).toContain('恢复');
    // a reason with nothing particular after the tap reads the same
    expect(reasonInfo('PAYMENT_HANDOFF', true)).toEqual(REASONS.PAYMENT_HANDOFF);
    expect(canonicalReason('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });

  it('a failure without a device code (a timeout, a lost worker) is a device error', () => {
    expect(reasonForDeviceFailure(undefined)).toBe('DEVICE_ERROR');
    expect(reasonForDeviceFailure('TimeoutFailure')).toBe('DEVICE_ERROR');
  });
});
