/**
 * A phone's health as its host reads it (docs/phone-hosts.md "Health"), and which readings stop
 * the phone from taking a claim: one table, used by the admin's claim check and by 设备.
 */
export interface PhoneHealth {
  battery_level: number;
  charging: boolean;
  screen: 'on' | 'off' | 'locked';
  free_storage_mb: number;
  checked_at: string;
}

/** Below this a phone that is not charging takes no claim: a purchase must not die with the battery. */
const LOW_BATTERY_PERCENT = 15;

/** Below this free storage a phone takes no claim: screenshots and PDD's own cache need room mid-purchase. */
export const LOW_STORAGE_MB = 500;

export const HEALTH_REFUSALS = {
  LOW_BATTERY: `电量低于 ${LOW_BATTERY_PERCENT}% 且未充电，请接上电源`,
  SCREEN_LOCKED: '手机锁屏或黑屏，请在手机上解锁并保持亮屏',
  LOW_STORAGE: `剩余存储低于 ${LOW_STORAGE_MB} MB，请清理手机存储空间`,
  APP_VERSION_UNPROFILED: '手机上的拼多多版本没有页面配置，请换回已支持的版本或更新设备程序',
  PHONE_PENDING: '这台手机待批准',
} as const satisfies Record<string, string>;
export type HealthRefusal = keyof typeof HEALTH_REFUSALS;

/**
 * `profiled`: whether the phone's worker has a page profile for the PDD version it runs now
 * (false only when both the version and the worker's profiles are known and differ).
 */
export function healthRefusal(
  h: Pick<PhoneHealth, 'battery_level' | 'charging' | 'screen' | 'free_storage_mb'>,
  profiled = true,
): HealthRefusal | null {
  if (h.battery_level < LOW_BATTERY_PERCENT && !h.charging) return 'LOW_BATTERY';
  if (h.screen !== 'on') return 'SCREEN_LOCKED';
  if (h.free_storage_mb < LOW_STORAGE_MB) return 'LOW_STORAGE';
  if (!profiled) return 'APP_VERSION_UNPROFILED';
  return null;
}

export type PhoneState = 'pending' | 'active' | 'revoked';
