import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from '../../migrations';

/**
 * Online backups of the admin database (docs/operations.md "Backup and restore"): SQLite's
 * backup API through better-sqlite3, from a connection of its own, so the admin keeps serving
 * and writing while the copy is made and the copy is one consistent moment of the database.
 */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

/** kysely's record of the applied migrations (admin/db/database.ts) */
const MIGRATION_TABLE = 'kysely_migration';

/** Writes a consistent copy of `dbFile` to `dest` (0600, via a temp file and a rename) and checks it. */
export async function backupAdminDb(dbFile: string, dest: string): Promise<{ file: string; bytes: number }> {
  if (!fs.existsSync(dbFile)) throw new BackupError(`no admin database at ${dbFile}`);
  const target = path.resolve(dest);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const tmp = `${target}.${process.pid}.tmp`;
  const source = new Database(dbFile, { fileMustExist: true, timeout: 5_000 });
  try {
    await source.backup(tmp);
  } finally {
    source.close();
  }
  fs.chmodSync(tmp, 0o600);
  // one self-contained file (no -wal beside it): what gets copied, moved and restored
  const copy = new Database(tmp);
  copy.pragma('journal_mode = DELETE');
  copy.close();
  const problem = checkBackupFile(tmp);
  if (problem) {
    fs.rmSync(tmp, { force: true });
    throw new BackupError(`the copy failed its check: ${problem}`);
  }
  fs.renameSync(tmp, target);
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
  if (!fs.existsSync(backupFile)) throw new BackupError(`no backup file at ${backupFile}`);
  const problem = checkBackupFile(backupFile);
  if (problem) throw new BackupError(`refusing to restore ${backupFile}: ${problem}`);
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
        throw new BackupError(
          `${dbFile} is open in another process: stop the admin (and any \`npm run cli\`) first, then restore`,
        );
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
  const tmp = `${dbFile}.${process.pid}.restore.tmp`;
  fs.copyFileSync(backupFile, tmp);
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, dbFile);
  return { previous };
}
