import type { Phone } from '../phone';
import type { CmdOutput } from '../shell/output';
import { normalizePath } from '../shell/paths';
import { programPrinter } from '../shell/session';
import { ScreenFrames } from './frames';
import { MinicapServer, type Projection } from './minicap';

/** The process name `pkill` and `pidof` know it by. */
const PROCESS = 'minicap';
const LIBRARY = 'minicap.so';
const DEFAULT_QUALITY = 80;
/** what minicap reads from the display: this build's density 440 dpi, 60 Hz */
const DPI = 440;
const FPS = 60;

const SOURCE = 'jni/minicap/minicap.cpp';
const USAGE =
  'Usage: minicap [-h] [-n <name>]\n' +
  '  -d <id>:       Display ID. (0)\n' +
  '  -n <name>:     Change the name of the abtract unix domain socket. (minicap)\n' +
  '  -P <value>:    Display projection (<w>x<h>@<w>x<h>/{0|90|180|270}).\n' +
  '  -Q <value>:    JPEG quality (0-100).\n' +
  '  -s:            Take a screenshot and output it to stdout. Needs -P.\n' +
  '  -S:            Skip frames when they cannot be consumed quickly enough.\n' +
  '  -t:            Attempt to get the capture method running, then exit.\n' +
  '  -i:            Get display information in JSON format. May segfault.\n' +
  '  -h:            Show help.\n';

interface Options {
  projection?: Projection;
  quality: number;
  socketName: string;
  mode: 'serve' | 'info' | 'shot' | 'test' | 'help';
}

const fail = (text: string): CmdOutput => ({ stdout: Buffer.alloc(0), stderr: Buffer.from(text), code: 1 });

function parseProjection(text: string): Projection | null {
  const m = /^(\d+)x(\d+)@(\d+)x(\d+)\/(\d+)$/.exec(text);
  if (!m) return null;
  const [realWidth, realHeight, virtualWidth, virtualHeight, rotation] = m.slice(1).map(Number) as number[];
  const sizes = [realWidth, realHeight, virtualWidth, virtualHeight] as number[];
  if (sizes.some((n) => n < 1 || n > 8192) || ![0, 90, 180, 270].includes(rotation as number)) return null;
  return { realWidth, realHeight, virtualWidth, virtualHeight, rotation } as Projection;
}

/** minicap's getopt: the options it reads, or the error it prints before it exits. */
function parse(args: string[]): Options | string {
  const o: Options = { quality: DEFAULT_QUALITY, socketName: PROCESS, mode: 'serve' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = (): string | undefined => args[++i];
    if (a === '-P') {
      const p = parseProjection(value() ?? '');
      if (!p) return 'ERROR: invalid format for -P, need <w>x<h>@<w>x<h>/{0|90|180|270}\n';
      o.projection = p;
    } else if (a === '-Q') {
      const q = Number(value());
      if (!Number.isInteger(q) || q < 0 || q > 100) return 'ERROR: invalid value for -Q, need 0-100\n';
      o.quality = q;
    } else if (a === '-n') o.socketName = value() ?? PROCESS;
    else if (a === '-d' || a === '-r') value();
    else if (a === '-S') continue;
    else if (a === '-i') o.mode = 'info';
    else if (a === '-s') o.mode = 'shot';
    else if (a === '-t') o.mode = 'test';
    else if (a === '-h') o.mode = 'help';
    else return `minicap: invalid option -- '${a.replace(/^-/, '')}'\n${USAGE}`;
  }
  return o;
}

/** `-i`: the display as minicap reads it, in its own JSON layout. */
function displayInfo(phone: Phone): string {
  const { width, height } = phone.screenSize;
  const lines = [
    `"id": 0`,
    `"width": ${width}`,
    `"height": ${height}`,
    `"xdpi": ${DPI.toFixed(2)}`,
    `"ydpi": ${DPI.toFixed(2)}`,
    `"size": ${(Math.hypot(width, height) / DPI).toFixed(2)}`,
    `"density": ${(DPI / 160).toFixed(2)}`,
    `"fps": ${FPS.toFixed(2)}`,
    `"secure": false`,
    `"rotation": 0`,
  ];
  return `{\n${lines.map((l) => `    ${l}`).join(',\n')}\n}\n`;
}

const projectionText = (p: Projection): string =>
  `${p.realWidth}x${p.realHeight}@${p.virtualWidth}x${p.virtualHeight}/${p.rotation}`;

/**
 * The dynamic linker's answer for `LD_LIBRARY_PATH`: the directory holding minicap.so, or the
 * line Android's linker prints when it finds none (the library was not pushed, or no path given).
 */
function linkError(phone: Phone, path: string, env: Record<string, string>): string | null {
  const dirs = (env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean);
  if (dirs.some((d) => phone.files.has(normalizePath(`${d}/${LIBRARY}`)))) return null;
  return `CANNOT LINK EXECUTABLE "${path}": library "${LIBRARY}" not found: needed by main executable\n`;
}

/**
 * `/data/local/tmp/minicap …` once the shell found it pushed and executable: `-i`, `-s`, `-t`
 * and `-h` answer and exit; without them it serves the screen on `localabstract:minicap` until
 * it is killed or its shell hangs up, printing what the real one prints while it starts.
 */
export async function runMinicap(
  phone: Phone,
  path: string,
  args: string[],
  env: Record<string, string>,
): Promise<CmdOutput> {
  const link = linkError(phone, path, env);
  if (link) return fail(link);
  const o = parse(args);
  if (typeof o === 'string') return fail(o);
  if (o.mode === 'help') return { stdout: Buffer.alloc(0), stderr: Buffer.from(USAGE), code: 0 };
  if (o.mode === 'info') return { stdout: Buffer.from(displayInfo(phone)), stderr: Buffer.alloc(0), code: 0 };
  const { width, height } = phone.screenSize;
  const p = o.projection ?? {
    realWidth: width,
    realHeight: height,
    virtualWidth: width,
    virtualHeight: height,
    rotation: 0,
  };
  const using = `INFO: (${SOURCE}:477) Using projection ${projectionText(p)}\n`;
  if (o.mode === 'test') return { stdout: Buffer.from('OK\n'), stderr: Buffer.from(using), code: 0 };
  if (o.mode === 'shot') {
    const shot = new ScreenFrames(phone, p.virtualWidth, p.virtualHeight, o.quality).frame().jpeg;
    return { stdout: shot, stderr: Buffer.from(using), code: 0 };
  }
  return serve(phone, p, o);
}

async function serve(phone: Phone, p: Projection, o: Options): Promise<CmdOutput> {
  const { session, print, printed } = programPrinter();
  let ended!: () => void;
  const killed = new Promise<void>((resolve) => (ended = resolve));
  let server: MinicapServer | null = null;
  const pid = phone.processes.spawn(PROCESS, () => {
    server?.stop();
    ended();
  });
  server = new MinicapServer(phone, pid, p, o.quality, o.socketName);
  print(`PID: ${pid}\n`);
  print(`INFO: (${SOURCE}:477) Using projection ${projectionText(p)}\n`);
  print(`INFO: (external/MY_minicap/src/minicap_30.cpp:243) Creating SurfaceComposerClient\n`);
  print(`INFO: (external/MY_minicap/src/minicap_30.cpp:271) Publishing virtual display\n`);
  if (!server.listen()) {
    phone.processes.exited(pid);
    print(`ERROR: (${SOURCE}:520) Unable to start server on namespace '${o.socketName}'\n`);
    return { stdout: Buffer.concat(printed), stderr: Buffer.alloc(0), code: 1 };
  }
  await Promise.race([killed, session?.hangup() ?? killed]);
  // a hang-up is SIGHUP: the process goes as if killed
  phone.processes.kill(pid);
  return { stdout: Buffer.concat(printed), stderr: Buffer.alloc(0), code: 0 };
}
