import { PHONE_FAULT_CODES, phoneFaultZh } from '../../domain/device-faults';
import { DEVICE_FAILURE_CODES, DEVICE_FAILURES } from '../../domain/purchase/failures';

/** 设备「最近错误」 blames a phone only for its own faults, and says so in Chinese. */
describe('phone faults', () => {
  it('a lost connection is the phone fault, in Chinese without its code', () => {
    expect(phoneFaultZh('ADB_DISCONNECTED')).toBe('手机与电脑的连接断开了');
    expect(phoneFaultZh('DEVICE_ERROR')).toMatch(/手机/u);
  });

  it('a price gate, a captcha or the goods are not the phone’s fault', () => {
    for (const code of ['GATE1_OVER_CAP', 'GATE2_OVER_CAP', 'PRICE_CHANGED', 'CAPTCHA_REQUIRED', 'GOODS_DELISTED'])
      expect([code, phoneFaultZh(code)]).toEqual([code, null]);
    expect(phoneFaultZh('SOMETHING_NEW')).toBeNull();
    expect(phoneFaultZh(null)).toBeNull();
  });

  it('every device failure the table calls a device error has its own Chinese, never its code', () => {
    const faults = DEVICE_FAILURE_CODES.filter((c) => DEVICE_FAILURES[c].reason === 'DEVICE_ERROR');
    expect(faults.length).toBeGreaterThan(5);
    expect([...PHONE_FAULT_CODES].sort()).toEqual(['DEVICE_ERROR', ...faults].sort());
    for (const code of PHONE_FAULT_CODES) {
      const text = phoneFaultZh(code);
      expect(text).toMatch(/[\u4e00-\u9fff]/u);
      expect(text).not.toMatch(/[A-Z]{2,}_[A-Z]/u);
      expect(text).not.toBe('手机操作失败');
    }
  });
});
