import type { Phone } from '../phone';
import { runMinicap } from '../screen/minicap-program';
import { runAppProcess } from '../screen/scrcpy-program';
import { COMMANDS } from './commands';
import type { CmdOutput } from './output';
import { isExecutable, normalizePath } from './paths';

const SH = '/system/bin/sh';

/** A program pushed to the phone, run by its path: `env` holds the `NAME=value` words before it. */
type Program = (phone: Phone, path: string, args: string[], env: Record<string, string>) => Promise<CmdOutput>;

/** The pushed programs the simulator can run, by file name (it knows a binary by its name, as an APK). */
const PROGRAMS: Record<string, Program> = {
  minicap: runMinicap,
  'minicap-nopie': runMinicap,
};

/** ELF e_machine values a phone's CPU runs, by `ro.product.cpu.abi` (an arm64 phone runs 32-bit ARM too). */
const MACHINES: Record<string, number[]> = {
  'arm64-v8a': [183, 40],
  'armeabi-v7a': [40],
  x86_64: [62, 3],
  x86: [3],
};
/** The simulator's `ro.product.cpu.abi` (shell/commands.ts `getprop`). */
const PHONE_ABI = 'arm64-v8a';

const refused = (text: string, code: number): CmdOutput => ({
  stdout: Buffer.alloc(0),
  stderr: Buffer.from(text),
  code,
});

/** An ELF file built for another CPU: the kernel will not load it. */
function wrongMachine(data: Buffer): boolean {
  if (data.length < 20 || data.readUInt32BE(0) !== 0x7f454c46) return false;
  return !(MACHINES[PHONE_ABI] ?? []).includes(data.readUInt16LE(18));
}

/** What the shell runs for `path`: a pushed program it may execute, or mksh's refusal. */
function pushedProgram(phone: Phone, path: string): Program | CmdOutput {
  const f = phone.files.get(normalizePath(path));
  if (!f) return refused(`${SH}: ${path}: inaccessible or not found\n`, 127);
  if (!isExecutable(f)) return refused(`${SH}: ${path}: can't execute: Permission denied\n`, 126);
  const program = PROGRAMS[path.slice(path.lastIndexOf('/') + 1)];
  if (!program || wrongMachine(f.data)) return refused(`${SH}: ${path}: can't execute: Exec format error\n`, 126);
  return program;
}

/**
 * The command one simple command line names: `NAME=value` words before it are its environment,
 * a name with a `/` outside /system/bin is a file on the phone, any other a built-in command.
 * Returns the run to make, or what the shell prints when there is nothing to run.
 */
export function findCommand(phone: Phone, argv: string[]): ((stdin: Buffer) => Promise<CmdOutput>) | CmdOutput {
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < argv.length; i++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(argv[i] as string);
    if (!m) break;
    env[m[1] as string] = m[2] as string;
  }
  const [name, ...args] = argv.slice(i);
  if (name === undefined) return { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), code: 0 };
  const base = name.replace(/^\/system\/bin\//, '');
  if (base.includes('/')) {
    const program = pushedProgram(phone, name);
    return typeof program === 'function' ? () => program(phone, name, args, env) : program;
  }
  // runs a Java program from a pushed jar (scrcpy-server), named by CLASSPATH
  if (base === 'app_process') return () => runAppProcess(phone, args, env);
  const cmd = COMMANDS[base];
  if (!cmd) return refused(`${SH}: ${name}: inaccessible or not found\n`, 127);
  return (stdin) => cmd(phone, args, stdin);
}
