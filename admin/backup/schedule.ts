import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../platform/logger';
import { backupAdminDb } from './backup';

export interface BackupSchedule {
  stop(): void;
}

const NAME = /^admin-\d{8}T\d{6}Z\.db$/;

function backupName(at: Date): string {
  return `admin-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.db`;
}

/**
 * CMAUTOBUY_BACKUP_DIR: an online backup of the admin database at start and then every
 * `intervalMs`, keeping the newest `keep` (docs/operations.md "Backup and restore"). A failed
 * backup is logged as an error and tried again at the next turn; it never stops the admin.
 */
export function scheduleBackups(opts: {
  dbFile: string;
  dir: string;
  keep: number;
  intervalMs: number;
  log: Logger;
}): BackupSchedule {
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  let running: Promise<void> = Promise.resolve();
  const turn = () => {
    running = running.then(async () => {
      try {
        const { file, bytes } = await backupAdminDb(opts.dbFile, path.join(opts.dir, backupName(new Date())));
        const removed = pruneBackups(opts.dir, opts.keep);
        opts.log.info({ file, bytes, removed }, 'admin database backed up');
      } catch (err) {
        opts.log.error({ err: (err as Error).message, dir: opts.dir }, 'admin database backup failed');
      }
    });
  };
  turn();
  const timer = setInterval(turn, opts.intervalMs).unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}

/** Removes all but the newest `keep` scheduled backups (their names sort by time); returns how many. */
export function pruneBackups(dir: string, keep: number): number {
  const ours = fs
    .readdirSync(dir)
    .filter((f) => NAME.test(f))
    .sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep));
  for (const f of old) fs.rmSync(path.join(dir, f), { force: true });
  return old.length;
}
