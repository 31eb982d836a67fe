import type { Phone } from '../phone';
import { renderPng, renderRaw } from '../app/render-png';
import { renderXml } from '../app/render-xml';
import type { UiNode } from '../app/node';
import { idleTimeoutMs, sleep } from '../latency';
import { IDLE_REFUSED, neverIdle } from '../idle';
import { df as dfOutput, dumpsysBattery, dumpsysPower, keyguardShowing, windowPolicy } from '../health';
import { settings } from './settings';
import { chmod, md5sum } from './files';
import { ime } from './ime';
import { input } from './input';
import { err, out, type Command } from './output';
import { normalizePath } from './paths';
import { kill, pidof, pkill } from './processes';
import {
  agentPackageDump,
  amInstrument,
  uiAutomationTaken,
  forceStopAgent,
  installedPackageLines,
  instrumentationList,
  pmInstall,
  pmUninstall,
} from '../agent/shell';

export type { CmdOutput, Command } from './output';
export { normalizePath } from './paths';

/** `ro.build.version.release` of the API levels a test may set. */
const ANDROID_RELEASE: Readonly<Record<number, string>> = {
  25: '7.1',
  26: '8.0',
  29: '10',
  30: '11',
  31: '12',
  32: '12',
  33: '13',
  34: '14',
};

const PDD_PACKAGE = 'com.xunmeng.pinduoduo';

function properties(phone: Phone): [string, string][] {
  return [
    ['dalvik.vm.heapsize', '512m'],
    ['persist.sys.locale', 'zh-CN'],
    ['persist.sys.timezone', 'Asia/Shanghai'],
    ['ro.boot.serialno', phone.hardwareSerial],
    ['ro.build.characteristics', 'default'],
    ['ro.build.fingerprint', 'Redmi/sim/sim:13/TKQ1.221114.001/V14.0.6.0.TMRCNXM:user/release-keys'],
    // Android 11 (API 30) by default: the newest level minicap has builds for (sim/phone/SCREENS.md)
    [
      'ro.build.version.release',
      ANDROID_RELEASE[phone.faults.android_sdk ?? 30] ?? String(phone.faults.android_sdk ?? 30),
    ],
    ['ro.build.version.sdk', String(phone.faults.android_sdk ?? 30)],
    ['ro.product.brand', 'Redmi'],
    ['ro.product.cpu.abi', 'arm64-v8a'],
    ['ro.product.device', 'sim'],
    ['ro.product.manufacturer', 'Xiaomi'],
    ['ro.product.model', 'SIM 1080x2376'],
    ['ro.product.name', 'sim'],
    ['ro.serialno', phone.hardwareSerial],
    ['ro.sf.lcd_density', '440'],
    ['sys.boot_completed', '1'],
  ];
}

const uiautomator: Command = async (phone, args) => {
  if (args[0] !== 'dump') {
    return err(
      'Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: executes UI automation tests\n\ndump: creates an XML dump of current UI hierarchy\n\nevents: prints out accessibility events until terminated\n',
      0,
    );
  }
  const rest = args.slice(1).filter((a) => a !== '--compressed' && a !== '--verbose');
  const target = rest[0] ?? '/sdcard/window_dump.xml';
  const taken = uiAutomationTaken(phone);
  if (taken) {
    await phone.delay('dump');
    return out(taken);
  }
  if (phone.health.screen === 'off') {
    await phone.delay('dump');
    return out('ERROR: null root node returned by UiTestAutomationBridge.\n');
  }
  // The lock screen is the active window while the keyguard shows; the app is not dumped.
  const system = phone.systemTree();
  const xml = await snapshot(phone, system);
  // never idle: the timeout's line, and no file (AOSP's DumpCommand returns before writing)
  if (xml === null) return err(IDLE_REFUSED, 0);
  if (target === '/dev/tty') return out(`${xml}UI hierchary dumped to: /dev/tty\n`);
  const path = normalizePath(target);
  if (!/^\/(sdcard|data\/local\/tmp)\//.test(path)) {
    return err(`ERROR: could not write to ${target}\n`, 0);
  }
  phone.files.set(path, { data: Buffer.from(xml), mtime: Math.floor(Date.now() / 1000) });
  return out(`UI hierchary dumped to: ${target}\n`);
};

/**
 * When the tree is read. `zero`: when the dump starts, the waiting after it, as adversarially as
 * a phone can be. `realistic`: as uiautomator does — it waits for the app to be idle (a loading
 * page is not: its spinner moves) and reads the tree then, so the dump's time ends with the page
 * that has settled. A stale dump or a fault's loading count still shows what it shows. null: the
 * page never went idle (../idle.ts) and the wait ran out, the tree unread.
 */
async function snapshot(phone: Phone, system: UiNode | null): Promise<string | null> {
  if (system) {
    await phone.delay('dump');
    return renderXml(system);
  }
  const started = Date.now();
  const refuse = async (): Promise<null> => {
    await sleep(idleTimeoutMs(phone.latencyProfile) - (Date.now() - started));
    return null;
  };
  if (phone.latencyProfile !== 'realistic') {
    if (neverIdle(phone)) return refuse();
    const xml = phone.app.dump();
    await phone.delay('dump');
    return xml;
  }
  await phone.delay('dump');
  await sleep(phone.app.msUntilSettled());
  return neverIdle(phone) ? refuse() : phone.app.dump();
}

const cat: Command = async (phone, args, stdin) => {
  if (args.length === 0) return out(stdin);
  const chunks: Buffer[] = [];
  let errors = '';
  for (const a of args) {
    const f = phone.files.get(normalizePath(a));
    if (f) chunks.push(f.data);
    else errors += `cat: ${a}: No such file or directory\n`;
  }
  return { stdout: Buffer.concat(chunks), stderr: Buffer.from(errors), code: errors ? 1 : 0 };
};

const rm: Command = async (phone, args) => {
  const force = args.some((a) => /^-[a-zA-Z]*f/.test(a));
  let errors = '';
  for (const a of args.filter((x) => !x.startsWith('-'))) {
    if (!phone.files.delete(normalizePath(a)) && !force) errors += `rm: ${a}: No such file or directory\n`;
  }
  return errors ? err(errors) : out('');
};

const ls: Command = async (phone, args) => {
  const paths = args.filter((a) => !a.startsWith('-'));
  const target = normalizePath(paths[0] ?? '/sdcard/');
  const f = phone.files.get(target);
  if (f) return out(`${paths[0]}\n`);
  const dir = target.endsWith('/') ? target : `${target}/`;
  const names = [...phone.files.keys()]
    .filter((k) => k.startsWith(dir))
    .map((k) => k.slice(dir.length))
    .filter((n) => !n.includes('/'));
  if (names.length === 0 && !/^\/(sdcard|data\/local\/tmp)\/?$/.test(target))
    return err(`ls: ${paths[0] ?? target}: No such file or directory\n`);
  return out(
    names
      .sort()
      .map((n) => `${n}\n`)
      .join(''),
  );
};

const AM_FLAGS_WITH_VALUE = new Set([
  '-a',
  '-d',
  '-t',
  '-c',
  '-n',
  '-f',
  '-e',
  '--es',
  '--ez',
  '--ei',
  '--el',
  '--ef',
  '--eu',
  '--ecn',
  '--esn',
  '--user',
  '-p',
]);

const am: Command = async (phone, args) => {
  const [sub, ...rest] = args;
  if (sub === 'force-stop' || sub === 'kill') {
    const pkg = rest.filter((a) => !a.startsWith('-'))[0];
    if (pkg) {
      phone.app.forceStop(pkg);
      forceStopAgent(phone, pkg);
    }
    await phone.delay('shell');
    return out('');
  }
  if (sub === 'instrument') return amInstrument(phone, rest);
  if (sub !== 'start' && sub !== 'start-activity') {
    return err(`Error: Unknown command: ${sub ?? ''}\n`, 1);
  }
  let action: string | undefined;
  let data: string | undefined;
  let component: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '-a') action = rest[i + 1];
    else if (a === '-d') data = rest[i + 1];
    else if (a === '-n') component = rest[i + 1];
    const takes = AM_FLAGS_WITH_VALUE.has(a) ? (a.startsWith('--e') && a !== '--esn' ? 2 : 1) : 0;
    i += takes;
  }
  const parts = [action ? `act=${action}` : '', data ? `dat=${data}` : '', component ? `cmp=${component}` : '']
    .filter(Boolean)
    .join(' ');
  const starting = `Starting: Intent { ${parts} }\n`;
  await phone.delay('am_start');
  if (
    data !== undefined &&
    (action === undefined || action === 'android.intent.action.VIEW') &&
    phone.app.startUrl(data)
  ) {
    return out(starting);
  }
  if (data === undefined && component?.startsWith(`${PDD_PACKAGE}/`)) {
    phone.app.startUrl(`pinduoduo://com.xunmeng.pinduoduo/index.html`);
    return out(starting);
  }
  return {
    stdout: Buffer.from(starting),
    stderr: Buffer.from(`Error: Activity not started, unable to resolve Intent { ${parts} flg=0x10000000 }\n`),
    code: 0,
  };
};

const dumpsys: Command = async (phone, args) => {
  await phone.delay('shell');
  if (args[0] === 'package') {
    const pkg = args[1];
    const agent = agentPackageDump(phone, pkg ?? '');
    if (agent !== null) return out(agent);
    if (pkg !== PDD_PACKAGE) return out(`Dexopt state:\n  Unable to find package: ${pkg ?? ''}\n`);
    const v = phone.appVersion;
    const code = v
      .split('.')
      .map((p) => p.padStart(2, '0'))
      .join('')
      .padEnd(6, '0');
    return out(
      'Activity Resolver Table:\n  Schemes:\n      pinduoduo:\n        1b2c3d4 com.xunmeng.pinduoduo/.ui.activity.MainFrameActivity filter 5e6f7a8\n\n' +
        'Packages:\n' +
        `  Package [${PDD_PACKAGE}] (a1b2c3d):\n` +
        '    userId=10234\n' +
        `    pkg=Package{9f8e7d6 ${PDD_PACKAGE}}\n` +
        `    codePath=/data/app/~~Xk3v9Q==/${PDD_PACKAGE}-Zp1w2A==\n` +
        `    versionCode=${code} minSdk=23 targetSdk=30\n` +
        `    versionName=${v}\n` +
        '    flags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ]\n' +
        '    firstInstallTime=2026-07-01 10:00:00\n',
    );
  }
  if (args[0] === 'window') {
    if (args[1] === 'policy') return out(windowPolicy(phone.health));
    const pkg = phone.app.activity();
    const focus = keyguardShowing(phone.health) ? 'NotificationShade' : pkg;
    return out(
      `${windowPolicy(phone.health)}\nWINDOW MANAGER WINDOWS (dumpsys window windows)\n` +
        `  mCurrentFocus=Window{4d2c1b0 u0 ${focus}}\n  mFocusedApp=ActivityRecord{8a7b6c5 u0 ${pkg} t42}\n`,
    );
  }
  if (args[0] === 'battery') return out(dumpsysBattery(phone.health));
  if (args[0] === 'power') return out(dumpsysPower(phone.health));
  return out('');
};

const getprop: Command = async (phone, args) => {
  const props = properties(phone);
  if (args[0] !== undefined) return out(`${props.find(([k]) => k === args[0])?.[1] ?? args[1] ?? ''}\n`);
  return out(props.map(([k, v]) => `[${k}]: [${v}]\n`).join(''));
};

const wm: Command = async (phone, args) => {
  const { width, height } = phone.screenSize;
  if (args[0] === 'size') return out(`Physical size: ${width}x${height}\n`);
  if (args[0] === 'density') return out('Physical density: 440\n');
  return err(`Error: unknown command '${args[0] ?? ''}'\n`, 255);
};

const screencap: Command = async (phone, args) => {
  const png = args.includes('-p');
  const file = args.filter((a) => !a.startsWith('-'))[0];
  const tree = phone.systemTree() ?? phone.app.visibleTree();
  await phone.delay('screencap');
  const data = png || file?.endsWith('.png') ? renderPng(tree) : renderRaw(tree);
  if (file) {
    phone.files.set(normalizePath(file), { data, mtime: Math.floor(Date.now() / 1000) });
    return out('');
  }
  return out(data);
};

const pm: Command = async (phone, args) => {
  if (args[0] === 'install') return pmInstall(phone, args.slice(1), (p) => phone.files.has(normalizePath(p)));
  if (args[0] === 'uninstall') return pmUninstall(phone, args.slice(1));
  if (args[0] === 'list' && args[1] === 'instrumentation') return out(instrumentationList(phone));
  if (args[0] === 'path') {
    return args[1] === PDD_PACKAGE
      ? out(`package:/data/app/~~Xk3v9Q==/${PDD_PACKAGE}-Zp1w2A==/base.apk\n`)
      : { ...out(''), code: 1 };
  }
  if (args[0] === 'list' && args[1] === 'packages')
    return out(
      `package:com.android.launcher3\npackage:${PDD_PACKAGE}\npackage:com.eg.android.AlipayGphone\n${installedPackageLines(phone)}`,
    );
  if (args[0] === 'list' && args[1] === 'features')
    return out('feature:android.hardware.touchscreen\nfeature:android.hardware.wifi\n');
  return err(`Unknown command: ${args[0] ?? ''}\n`, 1);
};

const echo: Command = async (_phone, args) => {
  const noNl = args[0] === '-n';
  const words = noNl ? args.slice(1) : args;
  return out(words.join(' ') + (noNl ? '' : '\n'));
};

const grep: Command = async (_phone, args, stdin) => {
  let invert = false;
  let ignoreCase = false;
  let fixed = false;
  let pattern: string | undefined;
  for (const a of args) {
    if (/^-[vieFE]+$/.test(a)) {
      invert ||= a.includes('v');
      ignoreCase ||= a.includes('i');
      fixed ||= a.includes('F');
    } else if (pattern === undefined) pattern = a;
  }
  if (pattern === undefined) return err('usage: grep [-EFiv] PATTERN\n', 2);
  const p = pattern;
  const re = fixed ? null : new RegExp(p, ignoreCase ? 'i' : '');
  const lines = stdin
    .toString('utf8')
    .split('\n')
    .filter((l, i, all) => i < all.length - 1 || l !== '');
  const hit = lines.filter((l) => {
    const m = re ? re.test(l) : ignoreCase ? l.toLowerCase().includes(p.toLowerCase()) : l.includes(p);
    return m !== invert;
  });
  return { stdout: Buffer.from(hit.map((l) => `${l}\n`).join('')), stderr: Buffer.alloc(0), code: hit.length ? 0 : 1 };
};

const sleepCmd: Command = async (_phone, args) => {
  const s = Number(args[0] ?? '0');
  if (!Number.isFinite(s) || s < 0) return err(`sleep: invalid number '${args[0] ?? ''}'\n`);
  await new Promise((r) => setTimeout(r, Math.min(s, 30) * 1000));
  return out('');
};

const df: Command = async (phone, args) => {
  const r = dfOutput(phone.health, args);
  return { stdout: Buffer.from(r.out), stderr: Buffer.from(r.err), code: r.err ? 1 : 0 };
};

export const COMMANDS: Record<string, Command> = {
  df,
  uiautomator,
  cat,
  rm,
  ls,
  input,
  am,
  dumpsys,
  getprop,
  wm,
  screencap,
  pm,
  echo,
  grep,
  settings,
  ime,
  chmod,
  md5sum,
  kill,
  pkill,
  pidof,
  sleep: sleepCmd,
  true: async () => out(''),
  false: async () => ({ ...out(''), code: 1 }),
};
