import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Phone } from '../phone';
import type { CmdOutput } from '../shell/output';
import { normalizePath } from '../shell/paths';
import { programPrinter } from '../shell/session';
import { encoderMissing } from './scrcpy-encoder';
import { ScrcpyServer, videoSize, type ScrcpyServerOptions } from './scrcpy-server';

/** The one scrcpy-server the simulator runs; another jar's version is told apart by its bytes. */
const SERVED_VERSION = '2.4';
const SERVER_CLASS = 'com.genymobile.scrcpy.Server';
/** The name `pidof` and `pkill` know a Java program started by app_process by. */
const PROCESS = 'app_process';
const MIN_SDK = 21;

const fail = (text: string): CmdOutput => ({ stdout: Buffer.alloc(0), stderr: Buffer.from(text), code: 1 });
const exception = (message: string): CmdOutput =>
  fail(`[server] ERROR: Exception on thread Thread[main,5,main]\n${message}\n`);

let jarVersions: Map<string, string> | null = null;

/** The scrcpy-server jars of `@u4/minicap-prebuilt` by MD5: what a pushed jar is. */
function knownJars(): Map<string, string> {
  if (jarVersions) return jarVersions;
  jarVersions = new Map();
  try {
    const dir = path.join(path.dirname(require.resolve('@u4/minicap-prebuilt')), 'prebuilt', 'scrcpy');
    for (const name of fs.readdirSync(dir)) {
      const m = /^scrcpy-server-v(.+)\.jar$/.exec(name);
      if (m)
        jarVersions.set(
          createHash('md5')
            .update(fs.readFileSync(path.join(dir, name)))
            .digest('hex'),
          m[1]!,
        );
    }
  } catch {
    // no package: no jar is known, every one is refused as a class not found
  }
  return jarVersions;
}

interface Parsed {
  options: ScrcpyServerOptions & { maxSize: number };
  warnings: string;
}

const bool = (v: string): boolean => v === 'true';

/** scrcpy 2.4's `Options.parse`: the client's version first, then `key=value` pairs in any order. */
function parseOptions(phone: Phone, args: string[]): Parsed | CmdOutput {
  const [clientVersion, ...pairs] = args;
  if (clientVersion === undefined) return exception('java.lang.IllegalArgumentException: Missing client version');
  if (clientVersion !== SERVED_VERSION)
    return exception(
      `java.lang.IllegalArgumentException: The server version (${SERVED_VERSION}) does not match the client (${clientVersion})`,
    );
  let scid = -1;
  let tunnelForward = false;
  let audio = true;
  let control = true;
  let maxSize = 0;
  let maxFps = 0;
  let warnings = '';
  const o = { sendDummyByte: true, sendDeviceMeta: true, sendCodecMeta: true, sendFrameMeta: true };
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 0) return exception(`java.lang.IllegalArgumentException: Invalid key=value pair: "${pair}"`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (key === 'scid') {
      scid = parseInt(value, 16);
      if (!/^-?[0-9a-fA-F]+$/.test(value) || scid < -1)
        return exception(
          `java.lang.IllegalArgumentException: scid may not be negative (except -1 for 'none'): ${scid}`,
        );
    } else if (key === 'tunnel_forward') tunnelForward = bool(value);
    else if (key === 'audio') audio = bool(value);
    else if (key === 'control') control = bool(value);
    else if (key === 'max_size') maxSize = Number.parseInt(value, 10) & ~7;
    else if (key === 'max_fps') maxFps = Number(value) || 0;
    else if (key === 'video_codec') {
      if (value !== 'h264') return exception(`java.lang.IllegalArgumentException: Video codec ${value} not supported`);
    } else if (key === 'send_dummy_byte') o.sendDummyByte = bool(value);
    else if (key === 'send_device_meta') o.sendDeviceMeta = bool(value);
    else if (key === 'send_codec_meta') o.sendCodecMeta = bool(value);
    else if (key === 'send_frame_meta') o.sendFrameMeta = bool(value);
    else if (key === 'raw_stream') {
      if (bool(value))
        Object.assign(o, { sendDummyByte: false, sendDeviceMeta: false, sendCodecMeta: false, sendFrameMeta: false });
    } else if (!['log_level', 'cleanup', 'video_bit_rate', 'power_off_on_close', 'stay_awake'].includes(key))
      warnings += `[server] WARN: Unknown server option: ${key}\n`;
  }
  // the simulator's server has no reverse tunnel to dial, no audio and no control socket
  if (!tunnelForward || audio || control)
    return fail(
      '[server] ERROR: the simulator serves scrcpy with tunnel_forward=true audio=false control=false only\n',
    );
  const size = videoSize(phone.screenSize, maxSize);
  const socketName = scid === -1 ? 'scrcpy' : `scrcpy_${scid.toString(16).padStart(8, '0')}`;
  return { options: { ...o, ...size, maxSize, maxFps, socketName, deviceName: 'SIM 1080x2376' }, warnings };
}

/**
 * `CLASSPATH=<jar> app_process / <class> <args…>`: app_process runs the class from the jar; the
 * simulator knows one class, scrcpy-server 2.4's `Server`, from the jar the host pushed.
 */
export async function runAppProcess(phone: Phone, args: string[], env: Record<string, string>): Promise<CmdOutput> {
  const classpath = env.CLASSPATH ?? '';
  const [, className, ...rest] = args;
  if (args.length < 2) return fail('Usage: app_process [java-options] cmd-dir start-class-name [options]\n');
  const jar = phone.files.get(normalizePath(classpath));
  const version = jar ? knownJars().get(createHash('md5').update(jar.data).digest('hex')) : undefined;
  if (className !== SERVER_CLASS || !version)
    return fail(
      `Error: Could not find or load main class ${className}\nCaused by: java.lang.ClassNotFoundException: ${className}\n`,
    );
  const sdk = phone.faults.android_sdk ?? 30;
  if (sdk < MIN_SDK)
    return fail(
      `java.lang.VerifyError: ${SERVER_CLASS} (scrcpy-server needs Android 5.0, API ${MIN_SDK}; this phone has API ${sdk})\n`,
    );
  if (version !== SERVED_VERSION)
    return exception(
      `java.lang.IllegalArgumentException: The server version (${version}) does not match the client (${rest[0] ?? ''})`,
    );
  const parsed = parseOptions(phone, rest);
  if ('code' in parsed) return parsed;
  const missing = encoderMissing();
  if (missing) return fail(`${parsed.warnings}[server] ERROR: Could not create video encoder: ${missing}\n`);
  return serve(phone, parsed, sdk);
}

async function serve(phone: Phone, parsed: Parsed, sdk: number): Promise<CmdOutput> {
  const { session, print, printed } = programPrinter();
  let ended!: (error: string | null) => void;
  const over = new Promise<string | null>((resolve) => (ended = resolve));
  const server = new ScrcpyServer(phone, parsed.options, (error) => ended(error));
  const pid = phone.processes.spawn(PROCESS, () => {
    server.stop();
    ended(null);
  });
  print(parsed.warnings);
  print(`[server] INFO: Device: [Xiaomi] Redmi ${parsed.options.deviceName} (Android SDK ${sdk})\n`);
  if (!server.listen()) {
    phone.processes.exited(pid);
    const e = `java.io.IOException: Address already in use (abstract socket ${parsed.options.socketName})`;
    return { ...exception(e), stdout: Buffer.concat(printed) };
  }
  const error = await Promise.race([over, session?.hangup().then(() => null) ?? over]);
  // a hang-up is SIGHUP: the process goes as if killed
  server.stop();
  phone.processes.kill(pid);
  if (error) print(`${error}\n`);
  return { stdout: Buffer.concat(printed), stderr: Buffer.alloc(0), code: error ? 1 : 0 };
}
