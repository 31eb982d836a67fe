import { LOW_STORAGE_MB } from './phone-health';

/**
 * Why a phone cannot take a waiting purchase now (`TaskView.waiting_for`, docs/api.md): one code
 * per phone, the first that applies in this order, with the operator's words. The admin works
 * them out in one place (admin/devices/claimability.ts); the UI shows the words.
 */
const CLAIM_BLOCKS = {
  DEVICE_PENDING: '待批准，还不能领取任务',
  DEVICE_PAUSED: '操作员已暂停',
  DEVICE_NEEDS_ATTENTION: '需处理：等人在手机上处理后恢复',
  DEVICE_HELD: '人工操作中',
  DEVICE_OFFLINE: '离线',
  BATTERY_LOW: '电量过低且未充电',
  SCREEN_LOCKED: '锁屏或黑屏',
  STORAGE_LOW: `剩余存储低于 ${LOW_STORAGE_MB} MB`,
  APP_VERSION_UNPROFILED: '拼多多版本没有页面配置',
  APP_VERSION_NOT_RELEASED: '拼多多版本未发布，不能真实下单',
  DEVICE_BUSY: '正在执行其他任务',
} as const satisfies Record<string, string>;
export type ClaimBlock = keyof typeof CLAIM_BLOCKS;

/** One phone that cannot take the task now, and why. */
export interface WaitingFor {
  device_id: string;
  display_name: string;
  reason_code: ClaimBlock;
}

/** The operator's words for a claim block; an unknown one (from a newer admin) still shows. */
export function claimBlockZh(code: string): string {
  return Object.prototype.hasOwnProperty.call(CLAIM_BLOCKS, code) ? CLAIM_BLOCKS[code as ClaimBlock] : code;
}

/**
 * Blocks that clear by themselves without a person: a busy phone finishes its task. A task whose
 * phones are all blocked otherwise waits for nobody and goes to 需处理.
 */
export function clearsByItself(code: ClaimBlock): boolean {
  return code === 'DEVICE_BUSY';
}
