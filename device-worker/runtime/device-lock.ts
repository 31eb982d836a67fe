import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../../platform/config';

/** Who holds the lock, written beside it for the message a second process prints. */
interface Holder {
  pid: number;
  host: string;
  startedAt: string;
}

export interface DeviceLock {
  release(): void;
}

/** referenced until released: a collected connection would drop the lock with it */
const held = new Set<Database.Database>();

const LOCK_FILE = 'worker.lock';
const HOLDER_FILE = 'worker.pid';

/**
 * One device worker per device id on this host: two would claim and tap the same phone and
 * keep two ledgers' worth of promises in one file. The lock is SQLite's exclusive file lock on
 * `<device dir>/worker.lock`, held for the life of the process. The kernel drops it when the
 * process ends in any way (SIGKILL and power loss included), so a crash never leaves a stale
 * lock behind and a reused pid can never look like a live holder — the weak spots of a pid file.
 * The pid file beside it only names the holder in the refusal.
 */
export function lockDevice(deviceDir: string, deviceId: string): DeviceLock {
  fs.mkdirSync(deviceDir, { recursive: true });
  const lockPath = path.join(deviceDir, LOCK_FILE);
  // timeout 0: a held lock is an answer, not something to wait for
  const db = new Database(lockPath, { timeout: 0 });
  try {
    db.pragma('journal_mode = DELETE');
    // in EXCLUSIVE locking mode the lock taken by the first write is kept until close
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL); DELETE FROM holder;');
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY' || (err as { code?: string }).code === 'SQLITE_LOCKED') {
      throw new ConfigError(refusal(deviceId, deviceDir, readHolder(path.join(deviceDir, HOLDER_FILE))));
    }
    throw err;
  }
  const holder: Holder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  const holderPath = path.join(deviceDir, HOLDER_FILE);
  fs.writeFileSync(holderPath, `${JSON.stringify(holder)}\n`);
  held.add(db);
  return {
    release() {
      if (!db.open) return;
      // only our own record: a successor may already have written its own
      if (readHolder(holderPath)?.pid === process.pid) fs.rmSync(holderPath, { force: true });
      held.delete(db);
      db.close();
    },
  };
}

function readHolder(file: string): Holder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof h.pid === 'number' ? { pid: h.pid, host: String(h.host), startedAt: String(h.startedAt) } : null;
  } catch {
    return null;
  }
}

function refusal(deviceId: string, deviceDir: string, holder: Holder | null): string {
  const who = holder
    ? `pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}`
    : 'a process that has not written its pid yet';
  return (
    `device ${deviceId} already has a device worker on this host (${who}), data dir ${deviceDir}. ` +
    'One phone has one driver: stop that process first (or give this one another --device-id / --data-dir).'
  );
}
