import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openMigratedAdminDb } from '../../admin/db/database';
import { openLedgerDb } from '../../device-worker/ledger/schema';

const ARCHITECTURE = path.resolve(__dirname, '../../docs/architecture.md');

/** The text of the section headed `### <number> …` up to the next heading of any level. */
function section(number: string): string {
  const text = fs.readFileSync(ARCHITECTURE, 'utf8');
  const start = text.search(new RegExp(`^#{2,3} ${number.replace('.', '\\.')} `, 'm'));
  if (start < 0) throw new Error(`docs/architecture.md has no §${number}`);
  const rest = text.slice(text.indexOf('\n', start) + 1);
  const end = rest.search(/^#{1,3} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The tables a SQLite file holds, without SQLite's, Kysely's and FTS5's own. */
function tablesOf(db: Database.Database): string[] {
  const rows = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string; sql: string | null }[];
  const virtual = rows.filter((r) => /CREATE VIRTUAL TABLE/i.test(r.sql ?? '')).map((r) => r.name);
  return rows
    .map((r) => r.name)
    .filter((n) => !n.startsWith('kysely_') && !virtual.some((v) => n.startsWith(`${v}_`)))
    .sort();
}

describe('docs/architecture.md names every table there is', () => {
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-tables-'))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('§5.1 lists exactly the tables of a freshly migrated admin database', async () => {
    const file = path.join(dir, 'admin.db');
    await (await openMigratedAdminDb(file)).destroy();
    const db = new Database(file, { readonly: true });
    const actual = tablesOf(db);
    db.close();
    // the first column of the section's table: | `a`, `b` | holds |
    const listed = [...section('5.1').matchAll(/^\| ([^|]+) \|/gm)]
      .flatMap((m) => [...m[1]!.matchAll(/`([a-z_]+)`/g)].map((t) => t[1]!))
      .sort();
    expect(listed).toEqual(actual);
  });

  it('§5.3 names every table of the phone ledger', () => {
    const db = openLedgerDb(path.join(dir, 'ledger.db'));
    const actual = tablesOf(db);
    db.close();
    const text = section('5.3');
    expect(actual.filter((t) => !text.includes(`\`${t}\``))).toEqual([]);
  });
});
