import { parseAwake, parseBattery, parseDataFreeMb, parseKeyguardShowing, screenState } from './health-output';

// Outputs as real phones print them (Pixel 6 / Android 14, Xiaomi Redmi Note 11 / Android 12,
// Samsung A52 / Android 13), trimmed to the sections the parsers read plus their neighbours.
const BATTERY_PIXEL_USB = `Current Battery Service state:
  AC powered: false
  USB powered: true
  Wireless powered: false
  Dock powered: false
  Max charging current: 500000
  Max charging voltage: 5000000
  Charge counter: 3245000
  status: 2
  health: 2
  present: true
  level: 73
  scale: 100
  voltage: 4102
  temperature: 296
  technology: Li-ion
  Charging state: 1
  Charging policy: 1
  Capacity level: 3
`;
const BATTERY_XIAOMI_UNPLUGGED = `Current Battery Service state:
  AC powered: false
  USB powered: false
  Wireless powered: false
  Max charging current: 0
  Max charging voltage: 0
  Charge counter: 412000
  status: 3
  health: 2
  present: true
  level: 9
  scale: 100
  voltage: 3561
  temperature: 310
  technology: Li-poly
`;
const POWER_AWAKE = `POWER MANAGER (dumpsys power)

Power Manager State:
  mDirty=0x0
  mWakefulness=Awake
  mWakefulnessChanging=false
  mIsPowered=true
  mPlugType=2
  mBatteryLevel=73
Display Power: state=ON
`;
const POWER_DOZING = `Power Manager State:
  mDirty=0x0
  mWakefulness=Dozing
  mIsPowered=false
Display Power: state=DOZE
`;
const WINDOW_POLICY_LOCKED = `WINDOW MANAGER POLICY STATE (dumpsys window policy)
    mSafeMode=false mSystemReady=true mSystemBooted=true
    mLidState=LID_ABSENT mLidOpenRotation=-1
    mScreenOnEarly=true mScreenOnFully=true
    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true
    mShowingDream=false mDreamingLockscreen=true mDreamingSleepToken=null
    mStatusBar=Window{8a5b1f6 u0 NotificationShade}
    KeyguardServiceDelegate
      showing=true
      showingAndNotOccluded=true
      inputRestricted=true
      occluded=false
      secure=true
      dreaming=false
      systemIsReady=true
      deviceHasKeyguard=true
      enabled=true
      offReason=OFF_BECAUSE_OF_USER
      currentUser=0
      bootCompleted=true
      screenState=SCREEN_STATE_ON
      interactiveState=INTERACTIVE_STATE_AWAKE
`;
const WINDOW_POLICY_UNLOCKED = WINDOW_POLICY_LOCKED.replace(/showing=true/, 'showing=false').replace(
  'mDreamingLockscreen=true',
  'mDreamingLockscreen=false',
);
// Android 7 prints the keyguard as mShowingLockscreen in the policy section, without the delegate.
const WINDOW_POLICY_ANDROID7 = `WINDOW MANAGER POLICY STATE (dumpsys window policy)
    mSystemReady=true mSystemBooted=true
    mShowingLockscreen=false mShowingDream=false mDreamingLockscreen=false mDreamingSleepToken=null
`;
const DF_DATA = `Filesystem       1K-blocks     Used Available Use% Mounted on
/dev/block/dm-48 115343360 94863360  20480000  83% /data
`;
const DF_SAMSUNG = `Filesystem        1K-blocks    Used Available Use% Mounted on
/dev/block/dm-7   110796224 98453112  12212728  89% /data
`;

describe('health parsers on real Android outputs', () => {
  it('dumpsys battery: level and charging (any power source, or status 2)', () => {
    expect(parseBattery(BATTERY_PIXEL_USB)).toEqual({ level: 73, charging: true });
    expect(parseBattery(BATTERY_XIAOMI_UNPLUGGED)).toEqual({ level: 9, charging: false });
    expect(parseBattery(BATTERY_XIAOMI_UNPLUGGED.replace('scale: 100', 'scale: 50'))).toEqual({
      level: 18,
      charging: false,
    });
    expect(parseBattery("Can't find service: battery\n")).toBeNull();
  });

  it('dumpsys power: awake only when Awake; Dozing and Asleep are dark', () => {
    expect(parseAwake(POWER_AWAKE)).toBe(true);
    expect(parseAwake(POWER_DOZING)).toBe(false);
    expect(parseAwake(POWER_AWAKE.replace('mWakefulness=Awake', 'mWakefulness=Asleep'))).toBe(false);
    expect(parseAwake('')).toBeNull();
  });

  it('dumpsys window: the keyguard from KeyguardServiceDelegate, or mShowingLockscreen on old Androids', () => {
    expect(parseKeyguardShowing(WINDOW_POLICY_LOCKED)).toBe(true);
    expect(parseKeyguardShowing(WINDOW_POLICY_UNLOCKED)).toBe(false);
    expect(parseKeyguardShowing(WINDOW_POLICY_ANDROID7)).toBe(false);
    expect(
      parseKeyguardShowing(WINDOW_POLICY_ANDROID7.replace('mShowingLockscreen=false', 'mShowingLockscreen=true')),
    ).toBe(true);
    expect(parseKeyguardShowing('nothing here')).toBeNull();
  });

  it('df /data: the Available column in MiB; an unknown path is unknown', () => {
    expect(parseDataFreeMb(DF_DATA)).toBe(20_000);
    expect(parseDataFreeMb(DF_SAMSUNG)).toBe(11_926);
    expect(parseDataFreeMb('df: /data: No such file or directory\n')).toBeNull();
  });

  it('screen: dark beats locked, and an unreadable keyguard is unknown rather than usable', () => {
    expect(screenState(true, false)).toBe('on');
    expect(screenState(true, true)).toBe('locked');
    expect(screenState(false, true)).toBe('off');
    expect(screenState(true, null)).toBeNull();
    expect(screenState(null, false)).toBeNull();
  });
});
