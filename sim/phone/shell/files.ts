import { createHash } from 'node:crypto';
import { err, out, type Command } from './output';
import { DEFAULT_FILE_MODE, normalizePath } from './paths';

/** `[ugoa]*[+-=][rwx]+`, toybox's symbolic modes as far as a pushed binary needs them. */
function symbolic(mode: number, spec: string): number | null {
  const m = /^([ugoa]*)([+\-=])([rwx]*)$/.exec(spec);
  if (!m) return null;
  const who = m[1] || 'a';
  const shifts = [...new Set(who.replace('a', 'ugo'))].map((c) => ({ u: 6, g: 3, o: 0 })[c as 'u'] ?? 0);
  const bits = [...(m[3] as string)].reduce((b, c) => b | { r: 4, w: 2, x: 1 }[c as 'r'], 0);
  let next = mode;
  for (const s of shifts) {
    if (m[2] === '=') next &= ~(7 << s);
    next = m[2] === '-' ? next & ~(bits << s) : next | (bits << s);
  }
  return next;
}

/** `chmod MODE FILE…` on files the shell can reach (what it pushed or wrote). */
export const chmod: Command = async (phone, args) => {
  const operands = args.filter((a) => a !== '-R');
  const [mode, ...paths] = operands;
  if (mode === undefined || paths.length === 0) return err('chmod: Need 2 arguments\n');
  let errors = '';
  for (const p of paths) {
    const f = phone.files.get(normalizePath(p));
    if (!f) {
      errors += `chmod: ${p}: No such file or directory\n`;
      continue;
    }
    const next = /^[0-7]{1,4}$/.test(mode) ? parseInt(mode, 8) : symbolic(f.mode ?? DEFAULT_FILE_MODE, mode);
    if (next === null) return err(`chmod: bad mode '${mode}'\n`);
    f.mode = next;
  }
  return errors ? err(errors) : out('');
};

/** `md5sum FILE…` (toybox): `<hex>  <path>` a line; a host compares it before pushing a binary again. */
export const md5sum: Command = async (phone, args) => {
  let lines = '';
  let errors = '';
  for (const p of args.filter((a) => !a.startsWith('-'))) {
    const f = phone.files.get(normalizePath(p));
    if (f) lines += `${createHash('md5').update(f.data).digest('hex')}  ${p}\n`;
    else errors += `md5sum: ${p}: No such file or directory\n`;
  }
  return { stdout: Buffer.from(lines), stderr: Buffer.from(errors), code: errors ? 1 : 0 };
};
