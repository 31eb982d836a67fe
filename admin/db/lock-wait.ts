import { setTimeout as sleep } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import {
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';

/** How long a statement waits for another connection's write lock: what the busy timeout gave before. */
export const WRITE_LOCK_WAIT_MS = 5_000;
const FIRST_PAUSE_MS = 1;
const LONGEST_PAUSE_MS = 16;

/**
 * SQLite's busy timeout waits for another connection's write lock by sleeping inside the call.
 * better-sqlite3 is synchronous, so the whole event loop stood still for the wait, and so did
 * every operator request behind it. Under a batch the admin worker holds the lock many times a
 * second, and at nice 10 it can be waiting for a core while it holds it. A phone host's
 * heartbeat written by the admin then froze the admin for up to 80 ms (docs/PERFORMANCE.md).
 *
 * This dialect sets the connection's busy timeout to 0. A statement that meets the lock fails at
 * once and runs again after an asynchronous pause, with the event loop free in between. After
 * `waitMs` it fails with SQLITE_BUSY, as the busy timeout did. Only statements SQLite says may be
 * run again are retried: one outside an explicit transaction (it changed nothing), a `BEGIN`,
 * and a `COMMIT`. A statement inside a transaction that meets the lock fails as it is, and the
 * caller's rollback ends the transaction. `writeTransaction` takes the lock at `BEGIN
 * IMMEDIATE`, so its statements never meet it.
 */
export class LockWaitingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly database: SQLite.Database,
    statements: SqliteDatabase,
    private readonly waitMs = WRITE_LOCK_WAIT_MS,
  ) {
    super({ database: statements });
    // the waiting is ours from here on; SQLite's own would sleep inside the call
    database.pragma('busy_timeout = 0');
  }

  override createDriver(): Driver {
    return new LockWaitingDriver(super.createDriver(), this.database, this.waitMs);
  }
}

class LockWaitingDriver implements Driver {
  /** the dialect's one connection, wrapped once rather than on every query */
  private wrapped: { inner: DatabaseConnection; outer: DatabaseConnection } | undefined;

  constructor(
    private readonly inner: Driver,
    private readonly database: SQLite.Database,
    private readonly waitMs: number,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    if (this.wrapped?.inner !== inner)
      this.wrapped = { inner, outer: new LockWaitingConnection(inner, this.database, this.waitMs) };
    return this.wrapped.outer;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.inner.savepoint?.(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.inner.rollbackToSavepoint?.(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.inner.releaseSavepoint?.(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

class LockWaitingConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly database: SQLite.Database,
    private readonly waitMs: number,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const mayRunAgain = !this.database.inTransaction || /^\s*(commit|end)\b/i.test(query.sql);
    const deadline = Date.now() + this.waitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (err) {
        if (!mayRunAgain || !isLockBusy(err) || Date.now() >= deadline) throw err;
        await sleep(pause);
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Another connection holds the lock (or is recovering the WAL index). Not SQLITE_BUSY_SNAPSHOT:
 * a transaction whose snapshot another writer overtook cannot succeed by waiting.
 */
function isLockBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY';
}
