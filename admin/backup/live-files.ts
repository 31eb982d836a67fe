import fs from 'node:fs';
import path from 'node:path';

/**
 * The files a backup must never be written onto, nor a restore read from: the admin database,
 * its SQLite side files, and every file a process holding the database open has open (its
 * logs, its other databases). Written onto, a rename would swap the live database (or its
 * write-ahead log) for a copy under the running admin. Compared by name, with symlinks and
 * `..` resolved, and by device and inode, so a symlink or a hard link to any of them is caught.
 */
const SIDE_FILES = ['', '-wal', '-shm', '-journal'];
/** bounds on the /proc walk, so a host with very many processes cannot stall a backup */
const MAX_PROCESSES = 4_096;
const MAX_FDS_PER_PROCESS = 4_096;

/** Why `file` is one of the live database's files, or null. */
export function liveFileProblem(file: string, dbFile: string): string | null {
  const target = resolvedName(file);
  const db = resolvedName(dbFile);
  const dbNames = new Set(SIDE_FILES.flatMap((s) => [`${db}${s}`, `${path.resolve(dbFile)}${s}`]));
  if (dbNames.has(target)) return `${file} is the admin database or one of its files (${path.basename(target)})`;
  const st = statOrNull(file);
  if (!st) return null;
  const key = inodeKey(st);
  for (const side of SIDE_FILES) {
    const s = statOrNull(`${dbFile}${side}`);
    if (s && inodeKey(s) === key) return `${file} is the same file as ${path.basename(dbFile)}${side}`;
  }
  const dbStat = statOrNull(dbFile);
  if (dbStat && openByDatabaseHolders(inodeKey(dbStat)).has(key))
    return `${file} is open in a process that has the admin database open`;
  return null;
}

/** The absolute name with every symlink of the path resolved, also when the file itself does not exist. */
function resolvedName(file: string): string {
  const abs = path.resolve(file);
  try {
    return fs.realpathSync(abs);
  } catch {
    try {
      return path.join(fs.realpathSync(path.dirname(abs)), path.basename(abs));
    } catch {
      return abs;
    }
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

const inodeKey = (s: fs.Stats): string => `${s.dev}:${s.ino}`;

/**
 * Device:inode of every file open in a process that has the file `dbKey` open — what Linux's
 * /proc/<pid>/fd shows of this user's processes (others' are unreadable and skipped). Empty
 * where there is no /proc: the name and side-file checks above still hold.
 */
function openByDatabaseHolders(dbKey: string): Set<string> {
  const found = new Set<string>();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return found;
  }
  for (const pid of pids.slice(0, MAX_PROCESSES)) {
    const fdDir = `/proc/${pid}/fd`;
    let fds: string[];
    try {
      fds = fs.readdirSync(fdDir).slice(0, MAX_FDS_PER_PROCESS);
    } catch {
      continue;
    }
    const keys: string[] = [];
    for (const fd of fds) {
      const s = statOrNull(`${fdDir}/${fd}`);
      if (s?.isFile()) keys.push(inodeKey(s));
    }
    if (keys.includes(dbKey)) for (const k of keys) found.add(k);
  }
  return found;
}
