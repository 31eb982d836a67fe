import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DeviceLedger } from './ledger';
import { LEDGER_MIGRATIONS, openLedgerDb } from './schema';
import { SubmissionLedger } from './submissions';

// The ledger exactly as the code before versioned migrations wrote it: claims, index and
// device_state in one exec under user_version 1, submissions created outside any version.
const OLD_CLAIMS = `CREATE TABLE claims (
     claim_id       TEXT PRIMARY KEY,
     device_id      TEXT NOT NULL,
     workflow_id    TEXT NOT NULL,
     run_id         TEXT NOT NULL,
     claimed_at     TEXT NOT NULL,
     released_at    TEXT,
     release_reason TEXT
   );
   CREATE UNIQUE INDEX claims_one_open_per_device ON claims(device_id) WHERE released_at IS NULL;
   CREATE TABLE device_state (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL);`;
const OLD_SUBMISSIONS = `CREATE TABLE IF NOT EXISTS submissions (
  authorization_id       TEXT NOT NULL UNIQUE,
  submission_id          TEXT NOT NULL,
  task_id                TEXT NOT NULL,
  workflow_id            TEXT NOT NULL,
  expected_json          TEXT NOT NULL,
  irreversible_action_at TEXT NOT NULL,
  tapped_at              TEXT,
  tap_error              TEXT
)`;

function oldLedger(file: string, parts: { claims: boolean; submissions: boolean }): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  if (parts.submissions) {
    db.exec(OLD_SUBMISSIONS);
    db.prepare(
      "INSERT INTO submissions (authorization_id, submission_id, task_id, workflow_id, expected_json, irreversible_action_at, tapped_at) VALUES ('auth-old', 'sub-old', 'task-old', 'wf-old', '{}', '2026-11-30T10:00:00.000Z', '2026-11-30T10:00:01.000Z')",
    ).run();
  }
  if (parts.claims) {
    db.transaction(() => {
      db.exec(OLD_CLAIMS);
      db.pragma('user_version = 1');
    }).immediate();
    db.prepare(
      "INSERT INTO claims (claim_id, device_id, workflow_id, run_id, claimed_at) VALUES ('claim-old', 'dev-1', 'wf-old', 'run-old', '2026-11-30T09:59:00.000Z')",
    ).run();
    db.prepare(
      "INSERT INTO device_state (key, value, updated_at) VALUES ('k', 'v-old', '2026-11-30T09:00:00.000Z')",
    ).run();
  }
  db.close();
}

/** Columns and indexes of every table, the shape the code relies on, whatever the SQL's spacing. */
function shape(file: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((t) => t.name);
    return tables.map((t) => ({
      table: t,
      columns: db.pragma(`table_info(${t})`),
      indexes: (db.pragma(`index_list(${t})`) as { name: string; unique: number; partial: number }[])
        .map((i) => ({ unique: i.unique, partial: i.partial, columns: db.pragma(`index_info(${i.name})`) }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    }));
  } finally {
    db.close();
  }
}

const appliedIds = (file: string): number[] => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT id FROM ledger_migrations ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  } finally {
    db.close();
  }
};

describe('ledger schema: versioned migrations, one statement each', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-schema-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every migration is a single statement with a unique, increasing id', () => {
    const db = new Database(':memory:');
    try {
      // prepare refuses a string holding more than one statement
      expect(() => db.prepare('SELECT 1; SELECT 2')).toThrow(/more than one statement/);
      LEDGER_MIGRATIONS.forEach((m, i) => {
        expect(m.id).toBe(i + 1);
        db.prepare(m.sql).run();
      });
    } finally {
      db.close();
    }
  });

  it('a new ledger applies every migration once; opening it again applies none', () => {
    const file = path.join(dir, 'ledger.db');
    openLedgerDb(file).close();
    expect(appliedIds(file)).toEqual(LEDGER_MIGRATIONS.map((m) => m.id));
    const before = shape(file);
    openLedgerDb(file).close();
    expect(appliedIds(file)).toEqual(LEDGER_MIGRATIONS.map((m) => m.id));
    expect(shape(file)).toEqual(before);
  });

  it('a ledger written by the old code opens, keeps its claims and submissions, and ends with the new shape', () => {
    const fresh = path.join(dir, 'fresh.db');
    openLedgerDb(fresh).close();
    const old = path.join(dir, 'old.db');
    oldLedger(old, { claims: true, submissions: true });

    const claims = new DeviceLedger(old, 'dev-1');
    const submissions = new SubmissionLedger(old);
    try {
      expect(claims.openClaim()).toMatchObject({ claim_id: 'claim-old', workflow_id: 'wf-old' });
      expect(claims.getState('k')).toBe('v-old');
      expect(submissions.get('auth-old')).toMatchObject({ submission_id: 'sub-old', tapped_at: expect.any(String) });
      // the old rows still bind: the open claim refuses another workflow, the spent authorization a second submit
      expect(() => claims.claim('wf-new', 'run-new')).toThrow(/claimed by wf-old/);
      expect(() =>
        submissions.begin({
          authorization_id: 'auth-old',
          submission_id: 'sub-2',
          task_id: 'task-old',
          workflow_id: 'wf-2',
          expected_json: '{}',
        }),
      ).toThrow(/already submitted/);
    } finally {
      claims.close();
      submissions.close();
    }
    expect(appliedIds(old)).toEqual([1, 2, 3, 4]);
    expect(shape(old)).toEqual(shape(fresh));
  });

  it('an old file holding only the submissions table gets the claim tables added and keeps its submission', () => {
    const fresh = path.join(dir, 'fresh.db');
    openLedgerDb(fresh).close();
    const old = path.join(dir, 'old.db');
    oldLedger(old, { claims: false, submissions: true });

    const submissions = new SubmissionLedger(old);
    const claims = new DeviceLedger(old, 'dev-1');
    try {
      expect(submissions.irreversible('auth-old')).toBe(true);
      expect(claims.claim('wf-new', 'run-new').workflow_id).toBe('wf-new');
    } finally {
      submissions.close();
      claims.close();
    }
    expect(shape(old)).toEqual(shape(fresh));
  });
});
