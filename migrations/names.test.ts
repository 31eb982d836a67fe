import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { COLLECT_RUN_STATUSES } from '../domain/collect-labels';
import { migrationProvider } from '.';
import { openAdminDb, type AdminDb } from '../admin/db/database';

/**
 * The names migrations on a database seeded as the older code left it: the order-number columns
 * get names that say which number they hold, the task search still finds both, a PDD number the
 * old 「已创建」 settlement wrote into the 顺运宝 column goes back where it belongs, stored
 * captcha reasons take the one code (0075-0077); the cap takes its one name and stored purchase
 * results name the PDD number `pdd_order_no` (0145, 0146). The old names live only here and in
 * the migrations themselves.
 */
const T = '2026-08-07T08:00:00Z';

async function seededAtOldSchema(): Promise<AdminDb> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-names-')), 'admin.db');
  const db = openAdminDb(file);
  const migrator = new Migrator({ db, provider: migrationProvider });
  const before = await migrator.migrateTo('0065_phone_hosts');
  if (before.error) throw before.error as Error;
  const line = (id: string, orderNo: string) =>
    sql`INSERT INTO syb_orders (syb_id, order_no, shopee_goods_id, quantity, syb_data, created_at, first_synced_at, updated_at)
        VALUES (${id}, ${orderNo}, '9001', 1, '{}', ${T}, ${T}, ${T})`.execute(db);
  await line('L1', 'TW-0001');
  await line('L2', 'TW-0002');
  await line('L3', 'TW-0003');
  const task = (id: string, sybId: string | null, orderNo: string | null, pddOrderNo: string | null) =>
    sql`INSERT INTO tasks (task_id, task_type, status, pdd_goods_url, pdd_goods_id, pdd_options, quantity,
          max_total_price_cent, execution_mode, syb_id, order_no, pdd_order_no, created_at, updated_at)
        VALUES (${id}, 'purchase', 'WAITING_PAYMENT', 'https://mobile.yangkeduo.com/goods.html?goods_id=1', '1', '{}', 1,
          1000, 'live', ${sybId}, ${orderNo}, ${pddOrderNo}, ${T}, ${T})`.execute(db);
  await task('T-MISPLACED', 'L1', '260807-111', null); // the old settlement's mistake
  await task('T-BOTH', 'L2', '260807-222', '260807-999'); // misplaced, but a PDD number already there
  await task('T-RIGHT', 'L3', 'TW-0003', '260807-333'); // as it should be
  await task('T-MANUAL', null, 'X-1', null); // no line: nothing says what it should hold
  await captchaStops(db);
  await storedResults(db);
  const done = await migrator.migrateToLatest();
  if (done.error) throw done.error as Error;
  return db;
}

/** Two tasks stopped under the older captcha spellings, one before and one after the tap. */
async function captchaStops(db: AdminDb): Promise<void> {
  for (const [n, code] of [
    [1, 'CAPTCHA'],
    [2, 'CAPTCHA_AFTER_SUBMIT'],
  ] as const) {
    const status = n === 1 ? 'NEEDS_MANUAL' : 'RECONCILIATION_REQUIRED';
    await sql`INSERT INTO tasks (task_id, task_type, status, pdd_goods_url, pdd_goods_id, pdd_options, quantity,
          max_total_price_cent, execution_mode, reason_code, authorization_id, created_at, updated_at)
        VALUES (${`T-CAPTCHA-${n}`}, 'purchase', ${status}, 'u', '1', '{}', 1, 1000, 'live', ${code}, ${`A${n}`}, ${T}, ${T})`.execute(
      db,
    );
    await sql`INSERT INTO order_authorizations (id, task_id, task_version, start_key, goods_id, pdd_options, quantity,
          total_price_cap_cent, execution_mode, status, workflow_id, created_by, created_at, expires_at)
        VALUES (${`A${n}`}, ${`T-CAPTCHA-${n}`}, 1, ${`k${n}`}, '1', '{}', 1, 1000, 'live', 'CONSUMED', ${`wf${n}`}, 'op', ${T}, '2026-08-07T09:00:00Z')`.execute(
      db,
    );
    const timeline = JSON.stringify([
      { at: T, status: 'CLAIMED', reason: null, detail: null, actor: null },
      { at: T, status, reason: code, detail: 'CAPTCHA stays in a detail', actor: null },
    ]);
    await sql`INSERT INTO purchase_attempts (id, task_id, authorization_id, device_id, workflow_id, status, failure_code,
          timeline_json, started_at)
        VALUES (${`P${n}`}, ${`T-CAPTCHA-${n}`}, ${`A${n}`}, 'd', ${`wf${n}`}, 'STOPPED', ${code}, ${timeline}, ${T})`.execute(
      db,
    );
  }
}

/** The purchase results the older code stored: the PDD number as `order_no`, found and not. */
async function storedResults(db: AdminDb): Promise<void> {
  const result = (orderNo: string | null) =>
    JSON.stringify({
      mode: 'live',
      requested: { quantity: 1, max_price_cent: 1000 },
      order_no: orderNo,
      match_status: 'pending',
    });
  await sql`UPDATE purchase_attempts SET purchase_json = ${result('260807-555')} WHERE id = 'P1'`.execute(db);
  await sql`UPDATE purchase_attempts SET purchase_json = ${result(null)} WHERE id = 'P2'`.execute(db);
  const data = JSON.stringify({ schema_version: 1, purchase: JSON.parse(result('260807-555')) as unknown });
  await sql`UPDATE tasks SET result_data = ${data} WHERE task_id = 'T-CAPTCHA-1'`.execute(db);
}

describe('names migrations (0075-0077, 0145, 0146)', () => {
  let db: AdminDb;
  beforeAll(async () => {
    db = await seededAtOldSchema();
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const columns = async (table: string) =>
    (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows.map((r) => r.name);

  it('renames the columns: syb_order_no on tasks and syb_orders, pdd_order_no on order_submissions', async () => {
    expect(await columns('tasks')).toEqual(expect.arrayContaining(['syb_order_no', 'pdd_order_no']));
    expect(await columns('syb_orders')).toContain('syb_order_no');
    expect(await columns('order_submissions')).toContain('pdd_order_no');
    for (const t of ['tasks', 'syb_orders', 'order_submissions']) expect(await columns(t)).not.toContain('order_no');
  });

  it('moves a misplaced PDD number to pdd_order_no and restores the 顺运宝 number from the line', async () => {
    const rows = await db
      .selectFrom('tasks')
      .select(['task_id', 'syb_order_no', 'pdd_order_no'])
      .orderBy('task_id')
      .execute();
    expect(rows).toEqual([
      { task_id: 'T-BOTH', syb_order_no: 'TW-0002', pdd_order_no: '260807-999' },
      { task_id: 'T-CAPTCHA-1', syb_order_no: null, pdd_order_no: null },
      { task_id: 'T-CAPTCHA-2', syb_order_no: null, pdd_order_no: null },
      { task_id: 'T-MANUAL', syb_order_no: 'X-1', pdd_order_no: null },
      { task_id: 'T-MISPLACED', syb_order_no: 'TW-0001', pdd_order_no: '260807-111' },
      { task_id: 'T-RIGHT', syb_order_no: 'TW-0003', pdd_order_no: '260807-333' },
    ]);
  });

  it('audits each moved task, keeping a PDD number that could not move', async () => {
    const audit = await db
      .selectFrom('audit_log')
      .select(['target_id', 'details_json'])
      .where('action', '=', 'task.order_numbers_repaired')
      .orderBy('target_id')
      .execute();
    expect(audit.map((a) => [a.target_id, JSON.parse(a.details_json!) as unknown])).toEqual([
      [
        'T-BOTH',
        { misplaced: '260807-222', syb_order_no: 'TW-0002', pdd_order_no: '260807-999', moved_to_pdd_order_no: false },
      ],
      [
        'T-MISPLACED',
        { misplaced: '260807-111', syb_order_no: 'TW-0001', pdd_order_no: '260807-111', moved_to_pdd_order_no: true },
      ],
    ]);
  });

  it('keeps the task search index over the renamed columns, through later writes', async () => {
    const found = async (text: string) =>
      (
        await sql<{ task_id: string }>`select t.task_id from tasks_search s join tasks t on t.rowid = s.rowid
          where tasks_search match ${`"${text}"`} order by t.task_id`.execute(db)
      ).rows.map((r) => r.task_id);
    expect(await found('TW-0001')).toEqual(['T-MISPLACED']);
    expect(await found('260807-111')).toEqual(['T-MISPLACED']);
    expect(await found('260807-222')).toEqual([]); // the value that left the 顺运宝 column left the index too
    await db.updateTable('tasks').set({ pdd_order_no: '260807-444' }).where('task_id', '=', 'T-MANUAL').execute();
    expect(await found('260807-444')).toEqual(['T-MANUAL']);
    await sql`INSERT INTO tasks_search (tasks_search) VALUES ('integrity-check')`.execute(db);
  });

  it('stores one captcha code: task reasons, attempt failures and timeline reasons (0077)', async () => {
    const tasks = await db
      .selectFrom('tasks')
      .select(['task_id', 'reason_code'])
      .where('task_id', 'like', 'T-CAPTCHA-%')
      .orderBy('task_id')
      .execute();
    expect(tasks.map((t) => t.reason_code)).toEqual(['CAPTCHA_REQUIRED', 'CAPTCHA_REQUIRED']);
    const attempts = await db
      .selectFrom('purchase_attempts')
      .select(['failure_code', 'timeline_json'])
      .orderBy('id')
      .execute();
    for (const a of attempts) {
      expect(a.failure_code).toBe('CAPTCHA_REQUIRED');
      const timeline = JSON.parse(a.timeline_json) as Array<{ reason: string | null; detail: string | null }>;
      expect(timeline.map((e) => e.reason)).toEqual([null, 'CAPTCHA_REQUIRED']);
      expect(timeline[1]!.detail).toBe('CAPTCHA stays in a detail');
    }
  });

  it('a collect task takes exactly the collect run states of domain/collect-labels.ts (the CHECK of 0010)', async () => {
    const table = (await sql<{ sql: string }>`select sql from sqlite_master where name = 'tasks'`.execute(db)).rows[0]!;
    const check = /task_type <> 'collect' OR status IN \(([^)]*)\)/.exec(table.sql)?.[1];
    expect(check?.split(',').map((s) => s.trim().replace(/'/g, ''))).toEqual([...COLLECT_RUN_STATUSES]);
  });
  it('names the cap max_total_price_cent on order_authorizations too, its CHECK kept (0145)', async () => {
    const cols = await columns('order_authorizations');
    expect(cols).toContain('max_total_price_cent');
    expect(cols.some((c) => c.includes('cap'))).toBe(false);
    const caps = await db
      .selectFrom('order_authorizations')
      .select(['id', 'max_total_price_cent'])
      .orderBy('id')
      .execute();
    expect(caps).toEqual([
      { id: 'A1', max_total_price_cent: 1000 },
      { id: 'A2', max_total_price_cent: 1000 },
    ]);
    // compared as text: better-sqlite3's error class belongs to the first test file that loaded it
    const refused = await db
      .updateTable('order_authorizations')
      .set({ max_total_price_cent: 0 })
      .where('id', '=', 'A1')
      .execute()
      .then(
        () => null,
        (err: unknown) => String(err),
      );
    expect(refused).toMatch(/CHECK constraint failed: max_total_price_cent > 0/);
  });

  it('stored purchase results carry the PDD number as pdd_order_no, nothing else changed (0146)', async () => {
    const attempts = await db.selectFrom('purchase_attempts').select(['id', 'purchase_json']).orderBy('id').execute();
    const purchases = attempts.map((a) => JSON.parse(a.purchase_json!) as Record<string, unknown>);
    expect(purchases).toEqual([
      {
        mode: 'live',
        requested: { quantity: 1, max_price_cent: 1000 },
        pdd_order_no: '260807-555',
        match_status: 'pending',
      },
      { mode: 'live', requested: { quantity: 1, max_price_cent: 1000 }, pdd_order_no: null, match_status: 'pending' },
    ]);
    const task = await db
      .selectFrom('tasks')
      .select('result_data')
      .where('task_id', '=', 'T-CAPTCHA-1')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(task.result_data!)).toEqual({ schema_version: 1, purchase: purchases[0] });
    const untouched = await db
      .selectFrom('tasks')
      .select('result_data')
      .where('task_id', '=', 'T-RIGHT')
      .executeTakeFirstOrThrow();
    expect(untouched.result_data).toBeNull();
  });
});
