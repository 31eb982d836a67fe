import type { Phone } from '../phone';
import { startAgentRun } from './http';
import { AGENT_PACKAGE, AGENT_RUNNER, AGENT_TEST_PACKAGE } from './state';
import { SETTINGS_PACKAGE, SETTINGS_VERSION } from '../shell/ime';

/** What a shell command hands back (the shape of ../shell/commands.ts `CmdOutput`). */
interface Output {
  stdout: Buffer;
  stderr: Buffer;
  code: number;
}

const out = (s: string, code = 0): Output => ({ stdout: Buffer.from(s), stderr: Buffer.alloc(0), code });

/** `pm install` flags that take a value; the rest (`-r`, `-g`, `-t`, `-d`) are switches. */
const PM_FLAGS_WITH_VALUE = new Set(['--user', '-i', '--install-location', '-S']);

/** The package an APK file holds, told by its name as the npm package ships them. */
function packageOfApk(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (/androidTest.*\.apk$/.test(name)) return AGENT_TEST_PACKAGE;
  if (/^appium-uiautomator2-server.*\.apk$/.test(name)) return AGENT_PACKAGE;
  // npm io.appium.settings ships `settings_apk-debug.apk`
  if (/^settings_apk.*\.apk$|appium[._-]settings.*\.apk$/.test(name)) return SETTINGS_PACKAGE;
  return null;
}

function positional(args: string[], withValue: Set<string>): string[] {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (withValue.has(a)) i += 1;
    else if (!a.startsWith('-')) rest.push(a);
  }
  return rest;
}

/**
 * `pm install [-r] [-g] … FILE` of a file pushed to the phone before; `pushed` says whether a
 * path names a file on the phone (the shell's own path rules).
 */
export async function pmInstall(phone: Phone, args: string[], pushed: (path: string) => boolean): Promise<Output> {
  const file = positional(args, PM_FLAGS_WITH_VALUE)[0];
  if (file === undefined) return out('Error: APK content must be streamed\n', 1);
  await phone.delay('am_start');
  if (!pushed(file))
    return out(`Error: Unable to open file: ${file}\nConsider using a file under /data/local/tmp/\n`, 1);
  const pkg = packageOfApk(file);
  if (pkg === null) return out(`Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${file}]\n`, 1);
  phone.agent.installed.add(pkg);
  // the server APK's name carries its version (`…-v10.6.6.apk`); the test APK's stays 1.0
  const named = /-v(\d+(?:\.\d+)*)\.apk$/.exec(file)?.[1];
  phone.agent.versions.set(pkg, pkg === SETTINGS_PACKAGE ? SETTINGS_VERSION : (named ?? '1.0'));
  return out('Success\n');
}

export async function pmUninstall(phone: Phone, args: string[]): Promise<Output> {
  const pkg = positional(args, PM_FLAGS_WITH_VALUE)[0] ?? '';
  if (!phone.agent.installed.delete(pkg)) return out('Failure [DELETE_FAILED_INTERNAL_ERROR]\n', 1);
  phone.agent.versions.delete(pkg);
  if (pkg !== SETTINGS_PACKAGE) phone.agent.stop();
  return out('Success\n');
}

/**
 * What `uiautomator dump` prints while the agent's instrumentation runs: Android lets one
 * UiAutomation connect at a time, so the dump's own is refused. Null while the agent is not running.
 */
export function uiAutomationTaken(phone: Phone): string | null {
  if (!phone.agent.running) return null;
  return (
    'java.lang.IllegalStateException: UiAutomationService ' +
    'android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@6a2f1c0 already registered!\n'
  );
}

export function installedPackageLines(phone: Phone): string {
  return [...phone.agent.installed].map((p) => `package:${p}\n`).join('');
}

/** `dumpsys package <pkg>` of an agent package as Android prints it; null for any other package. */
export function agentPackageDump(phone: Phone, pkg: string): string | null {
  if (pkg !== AGENT_PACKAGE && pkg !== AGENT_TEST_PACKAGE && pkg !== SETTINGS_PACKAGE) return null;
  const version = phone.agent.versions.get(pkg);
  if (!phone.agent.installed.has(pkg) || version === undefined)
    return `Dexopt state:\n  Unable to find package: ${pkg}\n`;
  return (
    'Packages:\n' +
    `  Package [${pkg}] (7c1d2e3):\n` +
    '    userId=10301\n' +
    `    pkg=Package{4a5b6c7 ${pkg}}\n` +
    `    versionCode=${version.split('.').length} minSdk=21 targetSdk=34\n` +
    `    versionName=${version}\n` +
    '    flags=[ DEBUGGABLE HAS_CODE ALLOW_CLEAR_USER_DATA ]\n'
  );
}

export function instrumentationList(phone: Phone): string {
  return phone.agent.installed.has(AGENT_TEST_PACKAGE)
    ? `instrumentation:${AGENT_RUNNER} (target=${AGENT_PACKAGE})\n`
    : '';
}

const AM_INSTRUMENT_FLAGS_WITH_VALUE = new Set(['-e', '-p', '--user', '--abi']);

/** `am force-stop` of either agent package kills the process the instrumentation runs in. */
export function forceStopAgent(phone: Phone, pkg: string): void {
  if (pkg === AGENT_PACKAGE || pkg === AGENT_TEST_PACKAGE) phone.agent.stop();
}

/**
 * `am instrument [-w] [-e k v]… COMPONENT`: starts the agent; with `-w` the command (and its
 * shell stream) lasts as long as the agent lives. `-e` takes a key and a value.
 */
export async function amInstrument(phone: Phone, args: string[]): Promise<Output> {
  const wait = args.includes('-w');
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-e') i += 2;
    else if (AM_INSTRUMENT_FLAGS_WITH_VALUE.has(a)) i += 1;
    else if (!a.startsWith('-')) rest.push(a);
  }
  const component = rest[0] ?? '';
  const installed = phone.agent.installed;
  if (component !== AGENT_RUNNER || !installed.has(AGENT_TEST_PACKAGE) || !installed.has(AGENT_PACKAGE)) {
    const [pkg, cls] = component.split('/');
    return out(
      'INSTRUMENTATION_STATUS: id=ActivityManagerService\n' +
        `INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{${pkg ?? ''}/${cls ?? ''}}\n` +
        'INSTRUMENTATION_STATUS_CODE: -1\n' +
        `android.util.AndroidException: INSTRUMENTATION_FAILED: ${component}\n`,
      1,
    );
  }
  await phone.delay('agent_start');
  const crashed = 'INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n';
  if (phone.faults.no_agent) return out(crashed);
  let died!: () => void;
  const ended = new Promise<void>((resolve) => (died = resolve));
  phone.agent.start(startAgentRun(phone, () => died()));
  if (!wait) return out('');
  await ended;
  return out(crashed);
}
