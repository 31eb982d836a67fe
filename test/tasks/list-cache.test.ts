import path from 'node:path';
import Database from 'better-sqlite3';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

type ListBody = { items: Array<{ task_id: string; status: string; device_name: string | null }>; total: number };

/**
 * The task list answers pages from memory while `task_list_version` stands still
 * (admin/purchase/list-cache.ts). What must hold is that it is never stale: each change the list
 * shows — made by the admin or by another connection to the file, as the admin's Temporal worker
 * writes from its own process — is in the very next answer.
 */
describe('GET /api/tasks — the kept pages are never stale', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let other: Database.Database;
  beforeAll(async () => {
    admin = await startTestAdmin();
    op = await loginOperator(admin);
    other = new Database(path.join(admin.dataDir, 'admin.db'));
    other.pragma('busy_timeout = 5000');
  });
  afterAll(async () => {
    other?.close();
    await admin?.close();
  });

  const list = async (qs = 'limit=50') => {
    const res = await op.get(`/api/tasks?${qs}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return res.body as ListBody;
  };
  const version = () => (other.prepare('SELECT n FROM task_list_version').get() as { n: number }).n;
  const row = (body: ListBody, id: string) => body.items.find((t) => t.task_id === id);

  it('shows a task another connection inserts, its status changes, its phone renamed, and its hiding', async () => {
    const before = await list();
    expect(await list()).toEqual(before); // answered again unchanged

    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const v0 = version();
    other
      .prepare(
        `INSERT INTO tasks (task_id, task_type, status, version, pdd_goods_url, pdd_goods_id, title, quantity,
           max_total_price_cent, execution_mode, pdd_options, created_at, updated_at)
         VALUES ('cache-1', 'purchase', 'PENDING', 1, 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
           '937122477375', '缓存 样本', 1, 2000, 'dry_run', '{"颜色分类":"黑色"}', ?, ?)`,
      )
      .run(at, at);
    expect(version()).toBeGreaterThan(v0);
    const inserted = await list();
    expect(row(inserted, 'cache-1')).toMatchObject({ status: 'PENDING', device_name: null });
    expect(inserted.total).toBe(before.total + 1);
    expect((await list('status=PENDING&limit=50')).items.map((t) => t.task_id)).toContain('cache-1');

    other.prepare(`UPDATE tasks SET status = 'ORDERING' WHERE task_id = 'cache-1'`).run();
    expect(row(await list(), 'cache-1')).toMatchObject({ status: 'ORDERING' });
    expect((await list('status=PENDING&limit=50')).items.map((t) => t.task_id)).not.toContain('cache-1');

    // the row names its phone: a rename through the operator API is in the next page
    const issued = await op.post('/api/devices', { display_name: '深圳-缓存' });
    expect(issued.status).toBe(201);
    const deviceId = (issued.body as { device_id: string }).device_id;
    other.prepare(`UPDATE tasks SET device_id = ? WHERE task_id = 'cache-1'`).run(deviceId);
    expect(row(await list(), 'cache-1')).toMatchObject({ device_name: '深圳-缓存' });
    const renamed = await op.request('PATCH', `/api/devices/${deviceId}`, { display_name: '深圳-改名' });
    expect(renamed.status).toBe(200);
    expect(row(await list(), 'cache-1')).toMatchObject({ device_name: '深圳-改名' });

    other.prepare(`UPDATE tasks SET removed_at = ? WHERE task_id = 'cache-1'`).run(at);
    const hidden = await list();
    expect(row(hidden, 'cache-1')).toBeUndefined();
    expect(hidden.total).toBe(before.total);
    expect(row(await list('include_hidden=1&limit=50'), 'cache-1')).toBeDefined();
  });
});
