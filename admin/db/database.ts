import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, sql } from 'kysely';
import { migrationProvider } from '../../migrations';
import { tightenFiles } from '../../platform/private-files';
import { LockWaitingSqliteDialect, WRITE_LOCK_WAIT_MS } from './lock-wait';
import { REQUIRED_TABLES, type AdminDatabase } from './schema';
import { cachingStatements } from './statement-cache';

export type AdminDb = Kysely<AdminDatabase>;

export class SchemaError extends Error {
  override readonly name = 'SchemaError';
}

/**
 * Opens the admin SQLite file with the settings of docs/architecture.md §5.1: WAL so readers never
 * block the single writer, foreign keys on, and a wait for another process's write lock (a CLI
 * command or the admin worker beside the admin) instead of a failure. The wait is asynchronous
 * (./lock-wait.ts): SQLite's own busy timeout would stop the event loop for it.
 */
export function openAdminDb(file: string): AdminDb {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const database = new SQLite(file);
  // the settings below may meet another process opening the file at the same moment
  database.pragma(`busy_timeout = ${WRITE_LOCK_WAIT_MS}`);
  database.pragma('journal_mode = WAL');
  // Sessions, device credential hashes and the audit log are in here: owner only, also for a
  // file an older version or a CLI run under another umask created.
  if (file !== ':memory:') tightenFiles([file, `${file}-wal`, `${file}-shm`]);
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = NORMAL');
  return kyselyOver(database);
}

/**
 * A second, read-only connection to the admin file, for the reads an operator waits on most (the
 * session check, the task list). A write on the main connection that waits for the admin
 * worker's lock holds that connection until it gets the lock. Reads queued behind it would wait
 * as long. Under WAL a read on its own connection sees every committed write and waits for none.
 * `:memory:` has no second connection: the main one serves.
 */
export function openAdminReads(file: string, db: AdminDb): AdminDb {
  if (file === ':memory:') return db;
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  return kyselyOver(database);
}

/** Kysely over one better-sqlite3 connection: prepared statements kept, lock waits off the event loop. */
function kyselyOver(database: SQLite.Database): AdminDb {
  return new Kysely<AdminDatabase>({ dialect: new LockWaitingSqliteDialect(database, cachingStatements(database)) });
}

async function migrateToLatest(db: AdminDb): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new SchemaError(`migration ${failed} failed: ${(error as Error).message}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** docs/architecture.md §5.1: a schema missing a table the code needs refuses to start, loudly. */
export async function checkSchema(db: AdminDb): Promise<void> {
  const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
  const present = new Set(rows.rows.map((r) => r.name));
  const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
  if (missing.length > 0) {
    throw new SchemaError(
      `admin database is missing tables: ${missing.join(', ')}. Run the migrations or restore a matching backup.`,
    );
  }
}

export async function openMigratedAdminDb(file: string): Promise<AdminDb> {
  const db = openAdminDb(file);
  try {
    await migrateToLatest(db);
    await checkSchema(db);
    return db;
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

/**
 * A read-then-write transaction that takes SQLite's write lock first (`BEGIN IMMEDIATE`),
 * so two writers can never both read the old state and then both write (docs/architecture.md §6).
 */
export async function writeTransaction<T>(db: AdminDb, fn: (trx: AdminDb) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      // `conn` is pinned to the one connection that holds the lock; never call
      // `.transaction()` on it.
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}
