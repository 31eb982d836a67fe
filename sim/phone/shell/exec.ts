import type { Phone } from '../phone';
import { normalizePath, type CmdOutput } from './commands';
import { findCommand } from './programs';
import { parse, ShellSyntaxError, type Pipeline, type Redirect } from './parser';

const SH = '/system/bin/sh';

function writeTarget(phone: Phone, target: string, data: Buffer, append: boolean, terminal: Buffer[]): string | null {
  if (target === '/dev/null') return null;
  if (target === '/dev/tty' || target === '/dev/stdout') {
    terminal.push(data);
    return null;
  }
  const path = normalizePath(target);
  if (!/^\/(sdcard|data\/local\/tmp)\//.test(path)) return `${SH}: can't create ${target}: Read-only file system\n`;
  const prev = append ? (phone.files.get(path)?.data ?? Buffer.alloc(0)) : Buffer.alloc(0);
  phone.files.set(path, { data: Buffer.concat([prev, data]), mtime: Math.floor(Date.now() / 1000) });
  return null;
}

async function runOne(phone: Phone, argv: string[], stdin: Buffer): Promise<CmdOutput> {
  const run = findCommand(phone, argv);
  if (typeof run !== 'function') return run;
  await phone.delay('shell');
  return run(stdin);
}

/** Applies redirections; returns what goes down the pipe (or to the terminal) as stdout. */
function route(
  phone: Phone,
  res: CmdOutput,
  redirects: Redirect[],
  terminal: Buffer[],
): { stdout: Buffer; code: number } {
  let stdoutTo: string | 'pipe' = 'pipe';
  let stderrTo: string | 'terminal' | 'stdout' = 'terminal';
  let stdoutAppend = false;
  let stderrAppend = false;
  for (const r of redirects) {
    if (r.op === 'dup1') stderrTo = 'stdout';
    else if (r.op === 'dup2') stdoutTo = stderrTo === 'terminal' ? 'pipe' : stderrTo;
    else if (r.fd === 1) {
      stdoutTo = r.target;
      stdoutAppend = r.op === '>>';
    } else {
      stderrTo = r.target;
      stderrAppend = r.op === '>>';
    }
  }
  let code = res.code;
  let stdout: Buffer = Buffer.alloc(0);
  if (stdoutTo === 'pipe') stdout = res.stdout;
  else {
    const e = writeTarget(phone, stdoutTo, res.stdout, stdoutAppend, terminal);
    if (e) {
      terminal.push(Buffer.from(e));
      code = 1;
    }
  }
  if (stderrTo === 'terminal') terminal.push(res.stderr);
  else if (stderrTo === 'stdout') stdout = Buffer.concat([stdout, res.stderr]);
  else writeTarget(phone, stderrTo, res.stderr, stderrAppend, terminal);
  return { stdout, code };
}

async function runPipeline(phone: Phone, pipeline: Pipeline, terminal: Buffer[]): Promise<number> {
  let stdin: Buffer = Buffer.alloc(0);
  let code = 0;
  for (let i = 0; i < pipeline.length; i++) {
    const c = pipeline[i];
    if (!c) continue;
    const res = await runOne(phone, c.argv, stdin);
    const routed = route(phone, res, c.redirects, terminal);
    code = routed.code;
    if (i === pipeline.length - 1) terminal.push(routed.stdout);
    else stdin = routed.stdout;
  }
  return code;
}

/** Runs a `shell:` command line; stdout and stderr come back merged, like adb's shell service. */
export async function runShell(phone: Phone, line: string): Promise<Buffer> {
  const terminal: Buffer[] = [];
  let list;
  try {
    list = parse(line);
  } catch (e) {
    if (e instanceof ShellSyntaxError) return Buffer.from(`${SH}: ${e.message}\n`);
    throw e;
  }
  let status = 0;
  for (const item of list) {
    if (item.join === '&&' && status !== 0) continue;
    if (item.join === '||' && status === 0) continue;
    status = await runPipeline(phone, item.pipeline, terminal);
  }
  return Buffer.concat(terminal);
}
