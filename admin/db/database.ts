import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { migrationProvider } from '../../migrations';
import { tightenFiles } from '../../platform/private-files';
import { REQUIRED_TABLES, type AdminDatabase } from './schema';
import { cachingStatements } from './statement-cache';

export type AdminDb = Kysely<AdminDatabase>;

export class SchemaError extends Error {
  override readonly name = 'SchemaError';
}

/**
 * Opens the admin SQLite file with the settings of docs/architecture.md §5.1: WAL so readers never
 * block the single writer, foreign keys on, and a busy timeout so a CLI command running
 * beside the admin waits instead of failing.
 */
export function openAdminDb(file: string): AdminDb {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // Sessions, device credential hashes and the audit log are in here: owner only, also for a
  // file an older version or a CLI run under another umask created.
  if (file !== ':memory:') tightenFiles([file, `${file}-wal`, `${file}-shm`]);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  return new Kysely<AdminDatabase>({ dialect: new SqliteDialect({ database: cachingStatements(database) }) });
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
