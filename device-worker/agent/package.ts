import fs from 'node:fs';
import path from 'node:path';

/**
 * The on-device agent is Appium's UiAutomator2 server, as the npm package
 * `appium-uiautomator2-server` ships it: a server APK and the instrumentation (test) APK that runs
 * it. It listens on port 6790 on the phone; Android 8.0 (API 26) is the oldest it serves.
 */
export const AGENT_PACKAGE = 'io.appium.uiautomator2.server';
export const AGENT_TEST_PACKAGE = `${AGENT_PACKAGE}.test`;
export const AGENT_RUNNER = `${AGENT_TEST_PACKAGE}/androidx.test.runner.AndroidJUnitRunner`;
export const AGENT_PORT = 6790;
export const AGENT_MIN_SDK = 26;

/** Why the agent cannot be used right now; it never ends a purchase, the reads go to `uiautomator dump`. */
export class AgentError extends Error {
  override readonly name = 'AgentError';
}

export interface AgentApks {
  /** the server APK's version, which `dumpsys package` reports once it is installed */
  version: string;
  server: string;
  test: string;
}

/** The two APKs inside node_modules; a missing package or file is said plainly (an install problem, not the phone's). */
export function agentApks(): AgentApks {
  let manifest: string;
  try {
    manifest = require.resolve('appium-uiautomator2-server/package.json');
  } catch {
    throw new AgentError('the npm package appium-uiautomator2-server is not installed: run npm ci');
  }
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  const dir = path.join(path.dirname(manifest), 'apks');
  const apks = {
    version,
    server: path.join(dir, `appium-uiautomator2-server-v${version}.apk`),
    test: path.join(dir, 'appium-uiautomator2-server-debug-androidTest.apk'),
  };
  for (const file of [apks.server, apks.test])
    if (!fs.existsSync(file)) throw new AgentError(`${file} is missing: run npm ci`);
  return apks;
}
