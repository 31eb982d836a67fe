import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * better-sqlite3 for Kysely's SqliteDialect, with its prepared statements kept: the dialect
 * prepares every query afresh, and preparing (parsing and planning the SQL) cost the admin more
 * than running it — the task list's page, its count and the session check are the same few SQL
 * texts with new parameters, thousands of times a minute (docs/PERFORMANCE.md).
 *
 * A statement still running (an iterator Kysely's streamQuery has not finished) is `busy` and
 * cannot be run again; a query that meets one gets a fresh statement instead. Least recently used
 * texts are dropped past `size`, so SQL built with inlined values cannot grow the cache unbounded.
 */
export function cachingStatements(database: SQLite.Database, size = 200): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      kept.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const stmt = kept.get(sql);
      if (stmt && !stmt.busy) {
        // a Map iterates in insertion order: re-inserting makes this the most recent
        kept.delete(sql);
        kept.set(sql, stmt);
        return stmt;
      }
      if (stmt) return database.prepare(sql);
      const fresh = database.prepare(sql);
      kept.set(sql, fresh);
      if (kept.size > size) kept.delete(kept.keys().next().value as string);
      return fresh;
    },
  };
}
