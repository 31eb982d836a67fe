import { z } from 'zod';

/**
 * A phone's battery, screen and storage (sim/phone/SCREENS.md "Phone health"), and what Android's
 * own tools print about them.
 */
const healthSchema = z
  .object({
    battery_level: z.number().int().min(0).max(100),
    charging: z.boolean(),
    screen: z.enum(['on', 'off', 'locked']),
    free_storage_mb: z.number().int().min(0).max(112_640),
  })
  .strict();
export type Health = z.infer<typeof healthSchema>;
export const healthPatchSchema = healthSchema.partial().strict();

export const DEFAULT_HEALTH: Health = { battery_level: 80, charging: true, screen: 'on', free_storage_mb: 20_000 };

/** A phone with a lock screen locks when its screen goes off. */
export const keyguardShowing = (h: Health): boolean => h.screen !== 'on';

// BatteryManager.BATTERY_STATUS_*: 2 charging, 3 discharging, 5 full.
function batteryStatus(h: Health): number {
  if (!h.charging) return 3;
  return h.battery_level >= 100 ? 5 : 2;
}

export function dumpsysBattery(h: Health): string {
  return [
    'Current Battery Service state:',
    '  AC powered: false',
    `  USB powered: ${h.charging}`,
    '  Wireless powered: false',
    '  Dock powered: false',
    `  Max charging current: ${h.charging ? 500000 : 0}`,
    `  Max charging voltage: ${h.charging ? 5000000 : 0}`,
    `  Charge counter: ${h.battery_level * 45000}`,
    `  status: ${batteryStatus(h)}`,
    '  health: 2',
    '  present: true',
    `  level: ${h.battery_level}`,
    '  scale: 100',
    `  voltage: ${3600 + h.battery_level * 6}`,
    '  temperature: 290',
    '  technology: Li-poly',
    '',
  ].join('\n');
}

export function dumpsysPower(h: Health): string {
  const awake = h.screen !== 'off';
  return [
    'POWER MANAGER (dumpsys power)',
    '',
    'Power Manager State:',
    '  Settings power_manager_constants:',
    '    no_cached_wake_locks=true',
    '  mDirty=0x0',
    `  mWakefulness=${awake ? 'Awake' : 'Asleep'}`,
    '  mWakefulnessChanging=false',
    `  mIsPowered=${h.charging}`,
    `  mPlugType=${h.charging ? 2 : 0}`,
    `  mBatteryLevel=${h.battery_level}`,
    '  mBatteryLevelWhenDreamStarted=0',
    '  mDockState=0',
    '  mStayOn=false',
    '  mProximityPositive=false',
    '  mBootCompleted=true',
    '  mSystemReady=true',
    `  mHalAutoSuspendModeEnabled=${!awake}`,
    '  mHalInteractiveModeEnabled=' + String(awake),
    '  mWakeLockSummary=0x0',
    `  mUserActivitySummary=0x${awake ? 1 : 0}`,
    '  mRequestWaitForNegativeProximity=false',
    '  mSandmanScheduled=false',
    `  mBatteryLow=${h.battery_level <= 15}`,
    `  mLowPowerModeEnabled=false`,
    '  mLastWakeTime=1203845 (12034 ms ago)',
    '  mLastSleepTime=0 (1203845 ms ago)',
    `  mDisplayReady=true`,
    `  mHoldingWakeLockSuspendBlocker=false`,
    `  mHoldingDisplaySuspendBlocker=${awake}`,
    '',
    `Display Power: state=${awake ? 'ON' : 'OFF'}`,
    '',
  ].join('\n');
}

/** The policy part of `dumpsys window` (also `dumpsys window policy`): where the keyguard state is. */
export function windowPolicy(h: Health): string {
  const showing = keyguardShowing(h);
  return [
    'WINDOW MANAGER POLICY STATE (dumpsys window policy)',
    `    mSafeMode=false mSystemReady=true mSystemBooted=true`,
    `    mScreenOnEarly=${h.screen !== 'off'} mScreenOnFully=${h.screen !== 'off'}`,
    `    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true`,
    `    mShowingDream=false mDreamingLockscreen=${showing} mDreamingSleepToken=null`,
    '    KeyguardServiceDelegate',
    `      showing=${showing}`,
    `      showingAndNotOccluded=${showing}`,
    '      inputRestricted=' + String(showing),
    '      occluded=false',
    '      secure=true',
    '      dreaming=false',
    `      systemIsReady=true`,
    `      deviceHasKeyguard=true`,
    `      enabled=true`,
    `      offReason=${h.screen === 'off' ? 'OFF_BECAUSE_OF_USER' : 'OFF_BECAUSE_OF_ADMIN'}`,
    `      currentUser=0`,
    `      bootCompleted=true`,
    `      screenState=${h.screen === 'off' ? 'SCREEN_STATE_OFF' : 'SCREEN_STATE_ON'}`,
    `      interactiveState=${h.screen === 'off' ? 'INTERACTIVE_STATE_SLEEP' : 'INTERACTIVE_STATE_AWAKE'}`,
    '',
  ].join('\n');
}

// A 128 GB phone: 110 GiB for /data, as `df` counts it.
const DATA_KB = 112_640 * 1024;
const MOUNTS = [
  { fs: '/dev/block/dm-5', kb: 5_003_496, free: 4_096, mount: '/' },
  { fs: 'tmpfs', kb: 5_768_652, free: 5_766_604, mount: '/dev' },
] as const;

function human(kb: number): string {
  if (kb >= 1024 * 1024 * 10) return `${Math.round(kb / 1024 / 1024)}G`;
  if (kb >= 1024 * 1024) return `${(kb / 1024 / 1024).toFixed(1)}G`;
  if (kb >= 1024) return `${Math.round(kb / 1024)}M`;
  return `${kb}K`;
}

/** toybox `df [-h] [path…]`: /data and /sdcard (the same storage) with the phone's free space. */
export function df(h: Health, args: string[]): { out: string; err: string } {
  const humanReadable = args.some((a) => /^-[a-zA-Z]*h/.test(a));
  const paths = args.filter((a) => !a.startsWith('-'));
  const freeKb = Math.min(DATA_KB, h.free_storage_mb * 1024);
  const data = { fs: '/dev/block/dm-48', kb: DATA_KB, free: freeKb, mount: '/data' };
  const fuse = { ...data, fs: '/dev/fuse', mount: '/storage/emulated' };
  const rows: { fs: string; kb: number; free: number; mount: string }[] = [];
  let err = '';
  const wanted = paths.length === 0 ? ['/', '/dev', '/data', '/storage/emulated'] : paths;
  for (const p of wanted) {
    if (p === '/data' || p.startsWith('/data/')) rows.push(data);
    else if (/^\/(sdcard|storage\/emulated)(\/|$)/.test(p)) rows.push(fuse);
    else if (p === '/dev') rows.push(MOUNTS[1]);
    else if (p === '/' || p === '/system') rows.push(MOUNTS[0]);
    else err += `df: ${p}: No such file or directory\n`;
  }
  const head = humanReadable
    ? 'Filesystem        Size  Used Avail Use% Mounted on'
    : 'Filesystem       1K-blocks     Used Available Use% Mounted on';
  const lines = rows.map((r) => {
    const used = r.kb - r.free;
    const pct = `${Math.ceil((used * 100) / r.kb)}%`;
    return humanReadable
      ? `${r.fs.padEnd(16)} ${human(r.kb).padStart(5)} ${human(used).padStart(5)} ${human(r.free).padStart(5)} ${pct.padStart(4)} ${r.mount}`
      : `${r.fs.padEnd(16)} ${String(r.kb).padStart(9)} ${String(used).padStart(8)} ${String(r.free).padStart(9)} ${pct.padStart(4)} ${r.mount}`;
  });
  return { out: rows.length ? [head, ...lines].map((l) => `${l}\n`).join('') : '', err };
}
