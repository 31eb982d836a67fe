/**
 * Pure parsers for what Android prints about a phone's health (docs/phone-hosts.md "Health"),
 * in the style of device-worker/adb/output.ts: each takes the whole output of one command and
 * returns null when it cannot tell, so a phone with an odd ROM reads as "unknown" instead of
 * as healthy.
 */

/** `dumpsys battery`: level in percent (level × 100 / scale) and whether any charger is plugged in. */
export function parseBattery(out: string): { level: number; charging: boolean } | null {
  const field = (key: string): string | null => new RegExp(`^\\s*${key}:\\s*(\\S+)\\s*$`, 'm').exec(out)?.[1] ?? null;
  const level = Number(field('level'));
  if (field('level') === null || !Number.isFinite(level)) return null;
  const scale = Number(field('scale') ?? 100) || 100;
  const powered = ['AC powered', 'USB powered', 'Wireless powered', 'Dock powered'].some((k) => field(k) === 'true');
  // BatteryManager.BATTERY_STATUS_CHARGING (2) / FULL (5) while plugged in
  const status = Number(field('status'));
  return {
    level: Math.max(0, Math.min(100, Math.round((level * 100) / scale))),
    charging: powered || status === 2,
  };
}

/** `dumpsys power`: whether the display is awake (`mWakefulness=Awake`; Asleep and Dozing are dark). */
export function parseAwake(out: string): boolean | null {
  const m = /mWakefulness=(\w+)/.exec(out);
  if (m) return m[1] === 'Awake';
  const d = /Display Power: state=(\w+)/.exec(out);
  return d ? d[1] === 'ON' : null;
}

/**
 * `dumpsys window` (or `dumpsys window policy`): whether the keyguard shows. Android 8+ prints
 * it in the KeyguardServiceDelegate block (`showing=`); older ones print `mShowingLockscreen=`;
 * `mDreamingLockscreen=` is printed by both.
 */
export function parseKeyguardShowing(out: string): boolean | null {
  const delegate = /KeyguardServiceDelegate[\s\S]*?^\s*showing=(true|false)/m.exec(out);
  if (delegate) return delegate[1] === 'true';
  const old = /mShowingLockscreen=(true|false)/.exec(out);
  if (old) return old[1] === 'true';
  const dreaming = /mDreamingLockscreen=(true|false)/.exec(out);
  return dreaming ? dreaming[1] === 'true' : null;
}

/** toybox `df /data` (1K blocks): the free space of /data in MiB. */
export function parseDataFreeMb(out: string): number | null {
  for (const line of out.split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 6 && cols[cols.length - 1] === '/data') {
      const availKb = Number(cols[3]);
      return Number.isFinite(availKb) ? Math.floor(availKb / 1024) : null;
    }
  }
  return null;
}

/** The screen as 设备 shows it: dark, lit behind the lock screen, or usable. */
export function screenState(awake: boolean | null, keyguard: boolean | null): 'on' | 'off' | 'locked' | null {
  if (awake === null) return null;
  if (!awake) return 'off';
  if (keyguard === null) return null;
  return keyguard ? 'locked' : 'on';
}
