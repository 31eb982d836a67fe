import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { nowUtc } from '../../domain/time';

/**
 * The ledger's schema, append-only: each entry is ONE statement (better-sqlite3's `prepare`
 * refuses a string with two), applied once, in order, and recorded in `ledger_migrations`.
 * Never edit or reorder an entry that has shipped; append a new one.
 */
export const LEDGER_MIGRATIONS: readonly { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'claims',
    sql: `CREATE TABLE claims (
       claim_id       TEXT PRIMARY KEY,
       device_id      TEXT NOT NULL,
       workflow_id    TEXT NOT NULL,
       run_id         TEXT NOT NULL,
       claimed_at     TEXT NOT NULL,
       released_at    TEXT,
       release_reason TEXT
     )`,
  },
  {
    // at most one open claim per device, whatever the code above it does
    id: 2,
    name: 'claims_one_open_per_device',
    sql: 'CREATE UNIQUE INDEX claims_one_open_per_device ON claims(device_id) WHERE released_at IS NULL',
  },
  {
    id: 3,
    name: 'device_state',
    sql: 'CREATE TABLE device_state (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL)',
  },
  {
    // UNIQUE authorization_id: a second submit for one authorization is impossible, across restarts
    id: 4,
    name: 'submissions',
    sql: `CREATE TABLE submissions (
       authorization_id       TEXT NOT NULL UNIQUE,
       submission_id          TEXT NOT NULL,
       task_id                TEXT NOT NULL,
       workflow_id            TEXT NOT NULL,
       expected_json          TEXT NOT NULL,
       irreversible_action_at TEXT NOT NULL,
       tapped_at              TEXT,
       tap_error              TEXT
     )`,
  },
];

const hasObject = (db: Database.Database, name: string): boolean =>
  db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;

/**
 * Ledgers written before `ledger_migrations` existed: `user_version = 1` meant the claims
 * table, its index and device_state, created together in one transaction (entries 1-3); the
 * submissions table was created outside any version (entry 4). Those files are adopted as
 * they are, rows kept, and go on from there.
 */
function adoptedBeforeMigrationsTable(db: Database.Database): number[] {
  const ids: number[] = [];
  if ((db.pragma('user_version', { simple: true }) as number) >= 1) ids.push(1, 2, 3);
  if (hasObject(db, 'submissions')) ids.push(4);
  return ids;
}

function migrate(db: Database.Database): void {
  db.transaction(() => {
    if (!hasObject(db, 'ledger_migrations')) {
      db.prepare(
        'CREATE TABLE ledger_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      ).run();
      const record = db.prepare('INSERT INTO ledger_migrations (id, name, applied_at) VALUES (?, ?, ?)');
      for (const id of adoptedBeforeMigrationsTable(db)) {
        record.run(id, `${LEDGER_MIGRATIONS.find((m) => m.id === id)!.name} (adopted)`, nowUtc());
      }
    }
    const applied = new Set(
      (db.prepare('SELECT id FROM ledger_migrations').all() as { id: number }[]).map((r) => r.id),
    );
    for (const m of LEDGER_MIGRATIONS) {
      if (applied.has(m.id)) continue;
      db.prepare(m.sql).run();
      db.prepare('INSERT INTO ledger_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(m.id, m.name, nowUtc());
    }
  }).immediate();
}

/**
 * Opens the phone host's ledger.db (data/device/<id>/ledger.db) and brings its schema up to
 * date. synchronous=FULL: a row is on disk when its write returns, which the submit relies on
 * (`irreversible_action_at` before the tap). Both ledgers open it; the IMMEDIATE transaction
 * makes the second opener wait and then find every migration applied.
 */
export function openLedgerDb(file: string): Database.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
