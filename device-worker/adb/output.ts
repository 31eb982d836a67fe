/**
 * Parsers for what Android prints over `shell:` (as Android prints it; the simulator's side is in sim/phone/SCREENS.md "ADB side"). `shell:` has no exit code, so
 * success and failure are read from the text; each parser accepts exactly the documented form
 * and returns null for anything else rather than guessing.
 */
import { cutText } from '../../domain/text';

const DUMP_TRAILER = /UI hier\w+ dumped to: \S*\s*$/;

export type UiDumpOutput = { kind: 'xml'; xml: string } | { kind: 'error'; message: string };

/** `uiautomator dump /dev/tty`: the XML, then the trailer on the same line. */
export function splitUiDump(out: string): UiDumpOutput {
  const start = out.indexOf('<?xml');
  const end = out.lastIndexOf('</hierarchy>');
  if (start >= 0 && end > start) return { kind: 'xml', xml: out.slice(start, end + '</hierarchy>'.length) };
  const err = /ERROR:[^\n]*/.exec(out);
  return {
    kind: 'error',
    message: err ? err[0].trim() : cutText(out.replace(DUMP_TRAILER, '').trim(), 200) || 'empty dump',
  };
}

/** `dumpsys package <pkg>`: the first `versionName=` of the package block; null = not installed. */
export function parseVersionName(out: string, pkg: string): string | null {
  if (!out.includes(`Package [${pkg}]`)) return null;
  const m = /^\s*versionName=(\S+)/m.exec(out);
  return m?.[1] ?? null;
}

/** `wm size`: the override size wins, because that is what taps and dumps use. */
export function parseWmSize(out: string): { width: number; height: number } | null {
  const pick = (label: string) => new RegExp(`${label} size: (\\d+)x(\\d+)`).exec(out);
  const m = pick('Override') ?? pick('Physical');
  return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
}

/** Some phones refuse injected input and say so only in text: treat it as a hard stop. */
export function isInjectEventsDenied(out: string): boolean {
  return /SecurityException/.test(out) && /INJECT_EVENTS/.test(out);
}

/** `am start`: an `Error:` line means the intent was not delivered. */
export function amStartError(out: string): string | null {
  const m = /^Error: .*$/m.exec(out);
  return m ? m[0] : null;
}
