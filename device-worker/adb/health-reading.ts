import { PDD_PACKAGE } from '../../domain/pdd-app';
import { parseVersionName } from './output';
import { parseAwake, parseBattery, parseDataFreeMb, parseKeyguardShowing, screenState } from './health-output';

export interface HealthReading {
  battery_level: number;
  charging: boolean;
  screen: 'on' | 'off' | 'locked';
  free_storage_mb: number;
  app_version?: string;
}

/**
 * One reading of a phone's battery, screen, storage and PDD version (docs/phone-hosts.md
 * "Health") through `shell` — the host's adbkit client every minute, the device worker's own
 * connection right before a claim. Null when any part cannot be read.
 */
export async function readHealthWith(shell: (command: string) => Promise<string>): Promise<HealthReading | null> {
  const battery = parseBattery(await shell('dumpsys battery'));
  const awake = parseAwake(await shell('dumpsys power'));
  const keyguard = parseKeyguardShowing(await shell('dumpsys window policy'));
  const free = parseDataFreeMb(await shell('df /data'));
  const pdd = parseVersionName(await shell(`dumpsys package ${PDD_PACKAGE}`), PDD_PACKAGE);
  const screen = screenState(awake, keyguard);
  if (!battery || screen === null || free === null) return null;
  return {
    battery_level: battery.level,
    charging: battery.charging,
    screen,
    free_storage_mb: free,
    ...(pdd ? { app_version: pdd } : {}),
  };
}
