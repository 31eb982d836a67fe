import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openMigratedAdminDb, type AdminDb } from '../../admin/db/database';
import { ATTEMPT_STATES, AUTHORIZATION_STATES, SUBMISSION_STATES } from '../../domain/purchase/record-states';
import { PURCHASE_STATUSES, statesWhere } from '../../domain/purchase/state-machine';

/**
 * The DB cannot read domain/purchase/state-machine.ts: its lists of states are written out in
 * migrations. A fresh DB migrated to the latest schema must hold exactly the lists the domain
 * tables hold — when a state is added, this test names the migration to write.
 */

const MIGRATIONS = path.resolve(__dirname, '../../migrations');

interface DbList {
  /** what the migration does to this list, for the message */
  object: string;
  /** how to change it in SQLite */
  change: string;
  /** the SQL that holds the list in sqlite_master, and the list's pattern in it */
  type: 'trigger' | 'index' | 'table';
  name: string;
  /** how the migrations spell the name, when they build it */
  stem?: string;
  pattern: RegExp;
  /** the domain's list, and where it is */
  expected: readonly string[];
  source: string;
}

const LISTS: DbList[] = [
  ...['insert', 'update'].map((op): DbList => ({
    object: `trigger tasks_purchase_status_${op}`,
    change: 'drops the triggers tasks_purchase_status_insert and tasks_purchase_status_update and creates them again',
    stem: 'tasks_purchase_status_',
    type: 'trigger',
    name: `tasks_purchase_status_${op}`,
    pattern: /NEW\.status NOT IN \(([^)]*)\)/,
    expected: PURCHASE_STATUSES,
    source: 'domain/purchase/state-machine.ts (its rows)',
  })),
  {
    object: 'index uq_tasks_live_syb_line',
    change: 'drops the index uq_tasks_live_syb_line and creates it again',
    type: 'index',
    name: 'uq_tasks_live_syb_line',
    pattern: /status IN \(([^)]*)\)/,
    expected: statesWhere('holdsOrderLine'),
    source: 'domain/purchase/state-machine.ts (`holdsOrderLine`)',
  },
  ...(
    [
      ['order_authorizations', AUTHORIZATION_STATES.all, 'AUTHORIZATION'],
      ['purchase_attempts', ATTEMPT_STATES.all, 'ATTEMPT'],
      ['order_submissions', SUBMISSION_STATES.all, 'SUBMISSION'],
    ] as const
  ).map(([table, expected, name]): DbList => ({
    object: `table ${table} (CHECK of status)`,
    change: `rebuilds the table ${table} (SQLite cannot alter a CHECK: create the new table, copy the rows, drop the old one, rename)`,
    type: 'table',
    name: table,
    pattern: /check \(status IN \(([^)]*)\)\)/i,
    expected,
    source: `domain/purchase/record-states.ts (${name})`,
  })),
];

/** The list in the SQL, or null when the SQL does not hold one. */
function listIn(sqlText: string, pattern: RegExp): string[] | null {
  const m = pattern.exec(sqlText);
  if (!m) return null;
  return m[1]!.split(',').map((s) => s.trim().replace(/^'|'$/g, ''));
}

/** The migration files that mention the object, newest last. */
function migrationsNaming(name: string): string[] {
  return fs
    .readdirSync(MIGRATIONS)
    .filter((f) => /^\d{4}_.*\.ts$/.test(f) && fs.readFileSync(path.join(MIGRATIONS, f), 'utf8').includes(name))
    .sort();
}

/** Null when the DB's list is the domain's; else what is wrong and which migration to write. */
function compare(list: DbList, sqlText: string | undefined): string | null {
  const inDb = sqlText === undefined ? null : listIn(sqlText, list.pattern);
  if (inDb && [...inDb].sort().join() === [...list.expected].sort().join()) return null;
  const last = migrationsNaming(list.stem ?? list.name).at(-1);
  const was = inDb
    ? `missing in the DB: [${list.expected.filter((s) => !inDb.includes(s)).join(', ')}]; only in the DB: [${inDb
        .filter((s) => !list.expected.includes(s))
        .join(', ')}]`
    : 'the DB holds no such list';
  return (
    `The ${list.object} differs from ${list.source}: ${was}. ` +
    `Write a new migration in migrations/ (the next free number, listed in migrations/index.ts) that ${list.change} ` +
    `with the list of ${list.source}${last ? `; it was last written by migrations/${last}` : ''}. ` +
    `Never edit a released migration (docs/architecture.md §5.1).`
  );
}

let tmp: string;
let db: AdminDb;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'state-check-'));
  db = await openMigratedAdminDb(path.join(tmp, 'admin.db'));
});

afterAll(async () => {
  await db.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function sqlOf(type: string, name: string): Promise<string | undefined> {
  const rows = await sql<{
    sql: string;
  }>`select sql from sqlite_master where type = ${type} and name = ${name}`.execute(db);
  return rows.rows[0]?.sql;
}

describe('the DB holds the states of the domain tables', () => {
  it.each(LISTS.map((l) => [l.object, l] as const))('%s', async (_, list) => {
    expect(compare(list, await sqlOf(list.type, list.name))).toBeNull();
  });

  it('a state added to the machine but not to the DB is named, with the migration to write', async () => {
    const trigger = LISTS[0]!;
    const message = compare(
      { ...trigger, expected: [...trigger.expected, 'ON_HOLD'] },
      await sqlOf('trigger', trigger.name),
    );
    expect(message).toContain('missing in the DB: [ON_HOLD]');
    expect(message).toContain('drops the triggers tasks_purchase_status_insert and tasks_purchase_status_update');
    expect(message).toContain('it was last written by migrations/0020_purchase.ts');
    const index = LISTS[2]!;
    expect(compare({ ...index, expected: index.expected.slice(1) }, await sqlOf('index', index.name))).toContain(
      'only in the DB: [DRAFT]',
    );
  });

  it('the trigger refuses a purchase state the machine does not have', async () => {
    // The message, not `rejects.toThrow`: better-sqlite3's native addon keeps the SqliteError class
    // of the first test file that loaded it in a jest worker, an Error of another realm, which
    // `toThrow` does not recognise as thrown.
    const refusal =
      await sql`insert into tasks (task_id, task_type, status, pdd_goods_id, version, created_at, updated_at, quantity, max_total_price_cent, pdd_options, execution_mode)
          values ('t-x', 'purchase', 'ON_HOLD', 'g', 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1, 100, '{}', 'live')`
        .execute(db)
        .then(
          () => 'accepted',
          (err: unknown) => String((err as { message?: unknown }).message),
        );
    expect(refusal).toMatch(/purchase task needs a purchase status/);
  });
});
