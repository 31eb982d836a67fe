import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ApiErrorCode } from '../../domain/api-errors';
import { migrations } from '../../migrations';
import { privateTempFile } from '../../platform/private-files';
import { liveFileProblem } from './live-files';

/**
 * Online backups of the admin database (docs/operations.md "Backup and restore"): SQLite's
 * backup API through better-sqlite3, from a connection of its own, so the admin keeps serving
 * and writing while the copy is made and the copy is one consistent moment of the database.
 */
export class BackupError extends Error {
  override readonly name = 'BackupError';
  readonly code: BackupErrorCode;
  constructor(refusal: { code: BackupErrorCode; message: string }) {
    super(refusal.message);
    this.code = refusal.code;
  }
}

/** the rows of domain/api-errors.ts a backup or restore refusal carries (the CLI prints code and message) */
type BackupErrorCode = Extract<ApiErrorCode, 'BACKUP_FILE_IN_USE' | 'BACKUP_REFUSED' | 'RESTORE_DB_OPEN'>;

function refuseLiveFile(file: string, dbFile: string, what: string): void {
  const problem = liveFileProblem(file, dbFile);
  if (problem)
    throw new BackupError({ code: 'BACKUP_FILE_IN_USE', message: `refusing to ${what} ${file}: ${problem}` });
}

/** kysely's record of the applied migrations (admin/db/database.ts) */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Writes a consistent copy of `dbFile` to `dest` and checks it. The copy holds every table
 * (password and token hashes included), so it is 0600 from its first byte: written into a 0700
 * folder beside `dest`, then renamed into place. Refused onto the database itself or any file
 * the admin has open (admin/backup/live-files.ts): the rename would replace it under the admin.
 */
export async function backupAdminDb(dbFile: string, dest: string): Promise<{ file: string; bytes: number }> {
  if (!fs.existsSync(dbFile))
    throw new BackupError({ code: 'BACKUP_REFUSED', message: `no admin database at ${dbFile}` });
  const target = path.resolve(dest);
  refuseLiveFile(target, dbFile, 'write a backup onto');
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const tmp = privateTempFile(target);
  try {
    const source = new Database(dbFile, { fileMustExist: true, timeout: 5_000 });
    try {
      await source.backup(tmp.file);
    } finally {
      source.close();
    }
    // one self-contained file (no -wal beside it): what gets copied, moved and restored
    const copy = new Database(tmp.file, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    const problem = checkBackupFile(tmp.file);
    if (problem) throw new BackupError({ code: 'BACKUP_REFUSED', message: `the copy failed its check: ${problem}` });
    // checked again just before the rename: the target may have been opened meanwhile
    refuseLiveFile(target, dbFile, 'write a backup onto');
    tmp.finish();
  } finally {
    tmp.discard();
  }
  return { file: target, bytes: fs.statSync(target).size };
}

/**
 * Why `file` must not become the admin database, or null: it is not a SQLite admin database,
 * it fails `PRAGMA integrity_check`, or it carries a migration this code does not know (a newer
 * schema: this code would run against tables it does not understand).
 */
function checkBackupFile(file: string): string | null {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    return `cannot open ${file}: ${(err as Error).message}`;
  }
  try {
    const rows = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    const findings = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    if (findings.length > 0) return `PRAGMA integrity_check failed: ${findings.slice(0, 3).join('; ')}`;
    const hasTable = db.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(MIGRATION_TABLE);
    if (!hasTable) return `${file} is not an admin database (no ${MIGRATION_TABLE} table)`;
    const applied = (db.prepare(`select name from ${MIGRATION_TABLE}`).all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
    const unknown = applied.filter((name) => !(name in migrations));
    if (unknown.length > 0)
      return `it carries a newer schema than this code (unknown migrations: ${unknown.join(', ')}); restore it with the version that wrote it`;
    return null;
  } catch (err) {
    return `PRAGMA integrity_check failed: ${(err as Error).message}`;
  } finally {
    db.close();
  }
}

/**
 * Replaces the admin database with a checked backup. Only into a stopped admin's data dir: the
 * exclusive lock taken first fails while any process has the database open. The database it
 * replaces is kept beside it as `admin.db.before-restore-<time>`.
 */
export async function restoreAdminDb(
  backupFile: string,
  dbFile: string,
  now = new Date(),
): Promise<{ previous: string | null }> {
  if (!fs.existsSync(backupFile))
    throw new BackupError({ code: 'BACKUP_REFUSED', message: `no backup file at ${backupFile}` });
  // the same files a backup may not be written onto: restoring from them would move the source away first
  refuseLiveFile(backupFile, dbFile, 'restore from');
  const problem = checkBackupFile(backupFile);
  if (problem)
    throw new BackupError({ code: 'BACKUP_REFUSED', message: `refusing to restore ${backupFile}: ${problem}` });
  fs.mkdirSync(path.dirname(dbFile), { recursive: true, mode: 0o700 });

  let previous: string | null = null;
  if (fs.existsSync(dbFile)) {
    // In WAL mode an EXCLUSIVE locking-mode connection cannot start while another holds the
    // file open: the admin, a CLI command, a backup in progress.
    const current = new Database(dbFile, { timeout: 0 });
    try {
      current.pragma('locking_mode = EXCLUSIVE');
      current.exec('BEGIN EXCLUSIVE; COMMIT;');
      // everything of the old database into its main file, so the copy kept aside is whole
      current.pragma('wal_checkpoint(TRUNCATE)');
    } catch (err) {
      current.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY')
        throw new BackupError({
          code: 'RESTORE_DB_OPEN',
          message: `${dbFile} is open in another process: stop the admin (and any \`npm run cli\`) first, then restore`,
        });
      throw err;
    }
    current.close();
    previous = `${dbFile}.before-restore-${now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}`;
    fs.renameSync(dbFile, previous);
  }
  for (const side of ['-wal', '-shm']) fs.rmSync(`${dbFile}${side}`, { force: true });
  // in a 0700 folder: the copy takes the backup file's mode until it is tightened
  const tmp = privateTempFile(dbFile);
  try {
    fs.copyFileSync(backupFile, tmp.file);
    fs.chmodSync(tmp.file, 0o600);
    tmp.finish();
  } finally {
    tmp.discard();
  }
  return { previous };
}
