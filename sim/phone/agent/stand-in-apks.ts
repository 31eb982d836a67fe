import fs from 'node:fs';
import path from 'node:path';

/**
 * The two APKs of npm `appium-uiautomator2-server` as the worker's agent installs them: the
 * server's version and both files (the shape of the worker's `AgentApks`).
 */
export interface StandInApks {
  version: string;
  server: string;
  test: string;
}

/** The server version the stand-ins carry in their names; `dumpsys package` reports it once installed. */
const STAND_IN_AGENT_VERSION = '10.6.6';

/**
 * Stand-ins for the npm package's two APKs, written into `dir`: the simulator knows an APK by its
 * file name (./shell.ts), so a test or bench that resets its phone before every case reinstalls
 * the agent from a few bytes instead of pushing the real 18 MB each time.
 */
export function writeStandInApks(dir: string): StandInApks {
  const apks = {
    version: STAND_IN_AGENT_VERSION,
    server: path.join(dir, `appium-uiautomator2-server-v${STAND_IN_AGENT_VERSION}.apk`),
    test: path.join(dir, 'appium-uiautomator2-server-debug-androidTest.apk'),
  };
  for (const f of [apks.server, apks.test]) fs.writeFileSync(f, 'PK\u0003\u0004 stand-in');
  return apks;
}
