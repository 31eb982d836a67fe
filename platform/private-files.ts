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
