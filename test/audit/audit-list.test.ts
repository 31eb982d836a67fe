import { randomUUID } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { recordAudits, type AuditActor, type AuditEntry } from '../../admin/audit/audit';
import { listAudit } from '../../admin/audit/list';
import type { AuditListItem, AuditPage } from '../../domain/audit-views';
import { encodeCursor } from '../../admin/catalog/common';
import { openMigratedAdminDb } from '../../admin/db/database';
import type { AdminDatabase } from '../../admin/db/schema';
import { loginOperator, startTestAdmin, tempDataDir, type OperatorClient, type TestAdmin } from '../harness';

/**
 * 审计日志 (`GET /api/audit`, admin/audit/list.ts): the rows as written, newest first, by action
 * (exact or a `*` prefix), by phone (its target, the device that acted, a device_id in the
 * details) and by task, page by page with a cursor only this list hands out.
 */
const PHONE = randomUUID();
const OTHER_PHONE = randomUUID();
const OPERATOR: AuditActor = { kind: 'operator', name: 'alice' };

describe('GET /api/audit', () => {
  let admin: TestAdmin;
  let op: OperatorClient;

  const write = (actor: AuditActor, entries: AuditEntry[]) => recordAudits(admin.db, actor, entries);
  const list = async (query: string): Promise<AuditPage> => {
    const res = await op.get(`/api/audit${query}`);
    expect(res.status).toBe(200);
    return res.body as AuditPage;
  };
  /** Every page of a query, walked with `limit`. */
  const walk = async (query: string, limit: number): Promise<AuditListItem[]> => {
    const all: AuditListItem[] = [];
    let cursor: string | null = null;
    do {
      const sep = query ? '&' : '?';
      const page: AuditPage = await list(
        `${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(limit);
      all.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return all;
  };
  const actions = (items: AuditListItem[]) => items.map((i) => i.action);

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    // interleaved, so a prefix's actions must be merged back into write order
    await write(OPERATOR, [{ action: 'zt.create', target: { kind: 'task', id: 'T-1' }, details: { quantity: 2 } }]);
    await write(OPERATOR, [{ action: 'zt.start', target: { kind: 'task', id: 'T-1' } }]);
    await write(OPERATOR, [{ action: 'zd.pause', target: { kind: 'device', id: PHONE } }]);
    await write({ kind: 'device', name: PHONE }, [{ action: 'zd.upload', target: { kind: 'evidence', id: 'E-1' } }]);
    await write(OPERATOR, [{ action: 'zt.create', target: { kind: 'task', id: 'T-2' } }]);
    await write(OPERATOR, [
      { action: 'zt.check', target: { kind: 'task', id: 'T-1' }, details: { device_id: PHONE, pdd_order_no: '1' } },
    ]);
    await write(OPERATOR, [{ action: 'zd.pause', target: { kind: 'device', id: OTHER_PHONE } }]);
    await write({ kind: 'system', name: 'restore-catch-up' }, [{ action: 'zs.note', details: { changes: ['x'] } }]);
    await write(OPERATOR, [{ action: 'zt.start', target: { kind: 'task', id: 'T-1' } }]);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('answers who, what, to what and when, newest first, with the details parsed', async () => {
    const page = await list('?limit=3');
    expect(page.items).toEqual([
      {
        at: expect.stringMatching(/Z$/),
        actor: 'alice',
        action: 'zt.start',
        target: { kind: 'task', id: 'T-1' },
        details: null,
      },
      {
        at: expect.any(String),
        actor: 'restore-catch-up',
        action: 'zs.note',
        target: null,
        details: { changes: ['x'] },
      },
      {
        at: expect.any(String),
        actor: 'alice',
        action: 'zd.pause',
        target: { kind: 'device', id: OTHER_PHONE },
        details: null,
      },
    ]);
    expect(page.next_cursor).toEqual(expect.any(String));
    // the operator's own login is a row too, as it was written
    expect(actions(await walk('', 50))).toContain('session.login');
  });

  it('filters by an exact action, or by every action under a prefix ending in *', async () => {
    expect(actions((await list('?action=zt.create')).items)).toEqual(['zt.create', 'zt.create']);
    expect(actions(await walk('?action=zt.*', 2))).toEqual([
      'zt.start',
      'zt.check',
      'zt.create',
      'zt.start',
      'zt.create',
    ]);
    expect(actions(await walk('?action=z*', 4))).toEqual([
      'zt.start',
      'zs.note',
      'zd.pause',
      'zt.check',
      'zt.create',
      'zd.upload',
      'zd.pause',
      'zt.start',
      'zt.create',
    ]);
    expect((await list('?action=zq.*')).items).toEqual([]);
    // a * anywhere else is part of the name
    expect((await list(`?action=${encodeURIComponent('zt*.start')}`)).items).toEqual([]);
  });

  it('filters by task (its target) and by phone (target, the device that acted, or named in the details)', async () => {
    const task = await walk('?task_id=T-1', 2);
    expect(actions(task)).toEqual(['zt.start', 'zt.check', 'zt.start', 'zt.create']);
    expect(task.every((i) => i.target?.id === 'T-1')).toBe(true);
    expect(actions(await walk(`?device_id=${PHONE}`, 1))).toEqual(['zt.check', 'zd.upload', 'zd.pause']);
    expect(actions((await list(`?device_id=${OTHER_PHONE}`)).items)).toEqual(['zd.pause']);
    // filters combine
    expect(actions((await list(`?device_id=${PHONE}&action=zt.*`)).items)).toEqual(['zt.check']);
    expect(actions((await list('?task_id=T-1&action=zt.start')).items)).toEqual(['zt.start', 'zt.start']);
    // empty parameters are no filter, as the page's selects send them
    expect((await list('?action=&device_id=&task_id=&cursor=&limit=1')).items).toHaveLength(1);
  });

  it('refuses what it cannot read, with a code', async () => {
    const refused = async (query: string, code: string) => {
      const res = await op.get(`/api/audit${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code } });
    };
    await refused('?device_id=phone-1', 'VALIDATION_FAILED');
    await refused('?task_id=T%201', 'VALIDATION_FAILED');
    await refused('?limit=0', 'VALIDATION_FAILED');
    await refused('?limit=201', 'VALIDATION_FAILED');
    await refused(`?action=${encodeURIComponent('任务')}`, 'VALIDATION_FAILED');
    await refused('?cursor=not-a-cursor', 'INVALID_CURSOR');
    // signed by this admin, but for another list (an offset there, never an audit row here)
    await refused(`?cursor=${encodeURIComponent(encodeCursor('50'))}`, 'INVALID_CURSOR');
    const { next_cursor } = await list('?limit=1');
    await refused(`?cursor=${encodeURIComponent(`${next_cursor!.slice(0, -2)}xx`)}`, 'INVALID_CURSOR');
  });

  it('is for operators only', async () => {
    const res = await fetch(`${admin.url}/api/audit`);
    expect(res.status).toBe(401);
  });
});

describe('the list reads each filter as an index range in list order', () => {
  let sqlite: SQLite.Database;
  let db: Kysely<AdminDatabase>;
  const seen: CompiledQuery[] = [];

  beforeAll(async () => {
    const file = path.join(tempDataDir('audit-plan'), 'admin.db');
    const migrated = await openMigratedAdminDb(file);
    await recordAudits(migrated, OPERATOR, [
      { action: 'task.create', target: { kind: 'task', id: 'T-1' } },
      { action: 'task.start', target: { kind: 'task', id: 'T-1' } },
    ]);
    await migrated.destroy();
    sqlite = new SQLite(file);
    db = new Kysely<AdminDatabase>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        if (event.level === 'query') seen.push(event.query);
      },
    });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  /** The plan of every statement one call of the list ran. */
  const plans = async (filter: Parameters<typeof listAudit>[1]): Promise<string[]> => {
    seen.length = 0;
    await listAudit(db, filter);
    return seen.map((q) =>
      (sqlite.prepare(`explain query plan ${q.sql}`).all(...q.parameters) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join(' | '),
    );
  };

  it.each([
    ['an action', { action: 'task.create' }, 'audit_log_action_idx'],
    ['a phone', { deviceId: PHONE }, 'audit_log_device_idx'],
    ['a task', { taskId: 'T-1' }, 'audit_log_target_idx'],
    ['a phone and an action', { deviceId: PHONE, action: 'task.*' }, 'audit_log_device_idx'],
  ])('by %s', async (_, filter, index) => {
    const [plan] = await plans({ ...filter, limit: 50 });
    expect(plan).toContain(index);
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('a prefix: one range per action it names, merged', async () => {
    const [distinct, ...pages] = await plans({ action: 'task.*', limit: 50 });
    expect(distinct).toContain('audit_log_action_idx');
    expect(pages).toHaveLength(2);
    for (const plan of pages) {
      expect(plan).toContain('audit_log_action_idx (action=?');
      expect(plan).not.toContain('TEMP B-TREE');
    }
  });
});
