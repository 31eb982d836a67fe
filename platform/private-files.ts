import fs from 'node:fs';
import path from 'node:path';

/**
 * Everything a process of this system writes (databases, logs, evidence, ledgers, artifacts)
 * is for the user running it alone: files 0600, directories 0700. Setting the umask makes
 * every file created from now on private, whichever library creates it; children inherit it.
 */
const PRIVATE_UMASK = 0o077;

export function usePrivateUmask(): void {
  process.umask(PRIVATE_UMASK);
}

/**
 * Tightens what an older version (or another umask) left behind: every directory below
 * `root` (and `root` itself) to 0700, every regular file to 0600. Symlinks are not followed
 * and not changed. A missing `root` is fine — nothing to tighten. Bounded by `maxEntries` so
 * a huge tree cannot stall a start.
 */
export function tightenTree(root: string, maxEntries = 100_000): void {
  let seen = 0;
  const walk = (dir: string) => {
    chmodQuietly(dir, 0o700);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > maxEntries) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) chmodQuietly(full, 0o600);
    }
  };
  if (fs.existsSync(root)) walk(root);
}

/** 0600 for each existing file of the list (e.g. a SQLite file and its -wal and -shm). */
export function tightenFiles(files: string[]): void {
  for (const f of files) chmodQuietly(f, 0o600);
}

function chmodQuietly(file: string, mode: number): void {
  try {
    fs.chmodSync(file, mode);
  } catch {
    // gone, or not ours: nothing to tighten
  }
}

/**
 * A file that is 0600 from its first byte, whatever the umask: a folder of its own (mkdtemp
 * makes it 0700) beside `target`, so it is on the same filesystem and a rename puts it in
 * place, and in it an empty file made by an exclusive open and set 0600 before anything is
 * written. A writer that opens the existing file (SQLite does) keeps its mode; SQLite gives its
 * journal the database file's mode too. `finish` renames it onto `target`; `discard` removes
 * it; either removes the folder.
 */
export interface PrivateTempFile {
  /** the empty 0600 file to write */
  file: string;
  /** renames `file` onto the target and removes the folder */
  finish(): void;
  /** removes the folder and whatever is in it; safe after finish and to call twice */
  discard(): void;
}

export function privateTempFile(target: string): PrivateTempFile {
  const dir = fs.mkdtempSync(path.join(path.dirname(target), `.${path.basename(target).slice(0, 64)}.tmp-`));
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, path.basename(target));
  try {
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      fs.fchmodSync(fd, 0o600);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const discard = () => fs.rmSync(dir, { recursive: true, force: true });
  return {
    file,
    finish() {
      fs.renameSync(file, target);
      discard();
    },
    discard,
  };
}
