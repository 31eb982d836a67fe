import type { SimFile } from '../phone';

/** `/storage/emulated/0/x` and `/sdcard/x` are the same file on Android. */
export function normalizePath(p: string): string {
  return p.replace(/^\/storage\/(emulated\/0|self\/primary)\//, '/sdcard/').replace(/\/+/g, '/');
}

/** What `adb push` gives a file when it names no mode (adbkit's and adb's default). */
export const DEFAULT_FILE_MODE = 0o644;

/** Whether the shell may run the file: its owner's execute bit (the shell user owns what it pushed). */
export function isExecutable(f: SimFile): boolean {
  return ((f.mode ?? DEFAULT_FILE_MODE) & 0o100) !== 0;
}
