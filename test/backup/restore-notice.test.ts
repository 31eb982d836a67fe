import fs from 'node:fs';
import path from 'node:path';
import { openMigratedAdminDb, type AdminDb } from '../../admin/db/database';
import { noteRestore, readRestoreNotice } from '../../admin/purchase/catch-up-notice';
import type { Logger } from '../../platform/logger';
import { tempDataDir } from '../harness';

/**
 * The restore's audit row and the 任务 page's notice read from it (admin/purchase/catch-up-notice.ts):
 * the replaced database names the lost drafts once; without one, a start that found the database
 * behind counts what it could.
 */
async function addDraft(db: AdminDb, taskId: string, title: string): Promise<void> {
  const now = '2026-01-01T00:00:00Z';
  await db
    .insertInto('tasks')
    .values({
      task_id: taskId,
      task_type: 'purchase',
      status: 'DRAFT',
      version: 1,
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=1',
      pdd_goods_id: '1',
      title,
      source: 'manual',
      pdd_options: '{}',
      quantity: 1,
      max_total_price_cent: 1000,
      execution_mode: 'dry_run',
      created_by: 'test',
      created_at: now,
      updated_at: now,
    })
    .execute();
}

describe('the restore notice', () => {
  let dir: string;
  let dbFile: string;
  let db: AdminDb;
  const warnings: string[] = [];
  const log = { warn: (_o: object, msg: string) => void warnings.push(msg) } as unknown as Logger;
  const rows = () =>
    db
      .selectFrom('audit_log')
      .select(['target_kind', 'target_id', 'details_json'])
      .where('action', '=', 'restore.lost_drafts')
      .execute();

  beforeAll(async () => {
    dir = tempDataDir('restore-notice');
    dbFile = path.join(dir, 'admin.db');
    const replaced = await openMigratedAdminDb(`${dbFile}.before-restore-20260101T000000Z`);
    await addDraft(replaced, 'T-kept', 'kept');
    await addDraft(replaced, 'T-lost', '黑色外套');
    await replaced.destroy();
    db = await openMigratedAdminDb(dbFile);
    await addDraft(db, 'T-kept', 'kept');
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('names the drafts the replaced database held, once, with what the catch-up did', async () => {
    expect(await readRestoreNotice(db)).toBeNull();
    const done = { caughtUp: ['T-a', 'T-b'], recreated: ['T-c'], unmatched: [] };
    expect(await noteRestore(db, dbFile, log, done)).toEqual(['T-lost']);
    expect(warnings).toEqual([expect.stringMatching(/^drafts created after the backup/)]);
    const notice = await readRestoreNotice(db);
    expect(notice).toMatchObject({
      caught_up: 2,
      recreated: 1,
      lost_drafts: [{ task_id: 'T-lost', title: '黑色外套' }],
      unmatched_workflows: 0,
    });
    // a start later: the file is read, nothing was behind
    expect(await noteRestore(db, dbFile, log, { caughtUp: [], recreated: [], unmatched: [] })).toEqual([]);
    expect(await rows()).toHaveLength(1);
    // a week on the page is enough; the audit row stays
    const later = new Date(Date.parse(notice!.at) + 8 * 86_400_000);
    expect(await readRestoreNotice(db, later)).toBeNull();
  });

  it('without a replaced database to read, counts the workflows that had no task', async () => {
    fs.rmSync(`${dbFile}.before-restore-20260101T000000Z`);
    const done = { caughtUp: ['T-a'], recreated: ['T-new'], unmatched: ['purchase/T-gone/auth-1'] };
    warnings.length = 0;
    expect(await noteRestore(db, dbFile, log, done)).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/no database a restore replaced is beside it/),
      expect.stringMatching(/^purchase workflows without a task/),
    ]);
    expect(await readRestoreNotice(db)).toMatchObject({
      caught_up: 1,
      recreated: 1,
      lost_drafts: null,
      unmatched_workflows: 1,
    });
    expect((await rows()).at(-1)).toMatchObject({ target_kind: 'restore' });
    // the same workflow failing again at the next start is not another restore
    await noteRestore(db, dbFile, log, { caughtUp: [], recreated: [], unmatched: ['purchase/T-gone/auth-1'] });
    await noteRestore(db, dbFile, log, { caughtUp: [], recreated: [], unmatched: [] });
    expect(await rows()).toHaveLength(2);
  });
});
