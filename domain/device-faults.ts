import { DEVICE_FAILURES, type DeviceFailureCode } from './purchase/failures';

/**
 * 设备「最近错误」: the phone's own faults, in the operator's words. A purchase that stopped
 * because of the goods, its price or the page (a price gate, a captcha, a delisted goods) is
 * the task's matter, not the phone's, and is not shown against the phone. The codes are those
 * the failure table (domain/purchase/failures.ts) gives the reason DEVICE_ERROR, and
 * DEVICE_ERROR itself (a device step that failed without a code: a timeout, a lost worker).
 */
const PHONE_FAULT_ZH: Readonly<Partial<Record<DeviceFailureCode | 'DEVICE_ERROR', string>>> = {
  ADB_DISCONNECTED: '手机与电脑的连接断开了',
  ADB_TIMEOUT: '手机长时间没有响应',
  ADB_FAILED: '手机执行命令失败',
  SCREEN_TIMEOUT: '手机画面长时间没有变化',
  UNEXPECTED_SCREEN: '手机上出现了意外的画面',
  DEVICE_BUSY: '手机正忙，被另一个任务占用',
  APP_NOT_INSTALLED: '手机上没有安装拼多多',
  INJECT_EVENTS_DENIED: '手机不允许模拟点击（需要在开发者选项里打开）',
  ADB_SERIAL_INVALID: '手机的序列号配置有误',
  DEVICE_NOT_CLAIMED: '手机没有领取这个任务就收到了操作',
  INVALID_INPUT: '手机收到了无效的操作指令',
  SUBMIT_REFUSED: '手机的提交记录拒绝了这次提交',
  DEVICE_ERROR: '手机操作失败（超时或与手机失去联系）',
};

/** The Chinese for a stop that is the phone's fault, or null when the phone is not to blame. */
export function phoneFaultZh(code: string | null): string | null {
  if (code === null) return null;
  if (code !== 'DEVICE_ERROR' && !(code in DEVICE_FAILURES)) return null;
  if (code !== 'DEVICE_ERROR' && DEVICE_FAILURES[code as DeviceFailureCode].reason !== 'DEVICE_ERROR') return null;
  return PHONE_FAULT_ZH[code as DeviceFailureCode | 'DEVICE_ERROR'] ?? '手机操作失败';
}

/** Every code phoneFaultZh answers for, for a query that reads only the phone's faults. */
export const PHONE_FAULT_CODES: readonly string[] = [
  'DEVICE_ERROR',
  ...Object.entries(DEVICE_FAILURES)
    .filter(([, rule]) => rule.reason === 'DEVICE_ERROR')
    .map(([code]) => code),
];
