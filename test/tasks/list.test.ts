import { collectedInTestDb } from '../collected';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

/** a goods of its own per draft (the goods id is searched), each shown by the phone as its reference goods */
const REFERENCE_GOODS = '937122477375';

describe('GET /api/tasks — keyset pagination and search', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  beforeAll(async () => {
    admin = await startTestAdmin();
    op = await loginOperator(admin);
  });
  /** a draft on `goodsId` once a phone collected it (a draft needs a collect) */
  const draftOn = async (goodsId: string, fields: { max_total_price_cent: number; title: string }) => {
    await collectedInTestDb(admin.db, goodsId, { copyOf: REFERENCE_GOODS });
    return op.post('/api/tasks', {
      type: 'purchase',
      pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${goodsId}`,
      pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
      quantity: 1,
      ...fields,
    });
  };
  afterAll(async () => {
    await admin?.close();
  });

  it('pages through every task exactly once and finds one by text', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await draftOn(`93712247737${i}`, { max_total_price_cent: 1000 + i, title: `标题 ${i}` });
      expect(res.status).toBe(201);
      ids.push((res.body as { task_id: string }).task_id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await op.get(`/api/tasks?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      const body = res.body as {
        items: Array<{ task_id: string; pdd_options: Record<string, string> }>;
        next_cursor: string | null;
      };
      expect(body.items.length).toBeLessThanOrEqual(2);
      seen.push(...body.items.map((t) => t.task_id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect([...seen].sort()).toEqual([...ids].sort());

    const found = await op.get(`/api/tasks?q=${encodeURIComponent('标题 3')}`);
    expect((found.body as { items: Array<{ task_id: string }> }).items.map((t) => t.task_id)).toEqual([ids[3]]);

    const bad = await op.get('/api/tasks?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
  });

  it('total counts every task the filter matches on every page, and follows inserts, status changes and deletes', async () => {
    type ListBody = { items: Array<{ task_id: string; status: string }>; next_cursor: string | null; total: number };
    const list = async (qs: string) => (await op.get(`/api/tasks?${qs}`)).body as ListBody;
    const all = await list('limit=200');
    const drafts = await list('status=DRAFT&limit=200');
    expect(all.total).toBe(all.items.length);
    expect(drafts.total).toBe(all.items.filter((t) => t.status === 'DRAFT').length);
    // a deep page reports the same total as the first
    const page1 = await list('limit=1');
    expect(page1.next_cursor).not.toBeNull();
    expect((await list(`limit=1&cursor=${encodeURIComponent(page1.next_cursor!)}`)).total).toBe(all.total);

    const made = await draftOn('937122477379', { max_total_price_cent: 500, title: '计数 样本' });
    expect(made.status).toBe(201);
    const id = (made.body as { task_id: string }).task_id;
    expect((await list('limit=1')).total).toBe(all.total + 1);
    expect((await list('status=DRAFT&limit=1')).total).toBe(drafts.total + 1);

    const canceled = await op.post(`/api/tasks/${id}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect((await list('status=DRAFT&limit=1')).total).toBe(drafts.total);
    expect((await list('status=CANCELED&limit=1')).total).toBe(1);
    expect((await list('limit=1')).total).toBe(all.total + 1);
    expect((await list('status=NO_SUCH_STATUS&limit=1')).total).toBe(0);

    await admin.db.deleteFrom('tasks').where('task_id', '=', id).execute();
    expect((await list('limit=1')).total).toBe(all.total);
    expect((await list('status=CANCELED&limit=1')).total).toBe(0);
  });

  it('search through the trigram index finds exactly what a substring match finds, and follows changed titles', async () => {
    type ListBody = { items: Array<{ task_id: string; title: string | null }>; total: number };
    const search = async (q: string) =>
      (await op.get(`/api/tasks?q=${encodeURIComponent(q)}&limit=100`)).body as ListBody;
    const titles = ['引号 "甲" 乙', '大小写 AbCdE', '旧标题 xyz'];
    const ids: string[] = [];
    for (const [i, title] of titles.entries()) {
      const res = await draftOn(`93712247738${i}`, { max_total_price_cent: 700, title });
      expect(res.status).toBe(201);
      ids.push((res.body as { task_id: string }).task_id);
    }
    // a double quote is literal, not FTS syntax; ASCII case does not matter, as with LIKE
    expect((await search('"甲" 乙')).items.map((t) => t.task_id)).toEqual([ids[0]]);
    expect((await search('bcd')).items.map((t) => t.task_id)).toEqual([ids[1]]);
    expect(await search('BCDx')).toMatchObject({ items: [], total: 0 });
    // the goods id and the task id are searched as well
    expect((await search('937122477381')).items.map((t) => t.task_id)).toEqual([ids[1]]);
    expect((await search(ids[2]!)).items.map((t) => t.task_id)).toEqual([ids[2]]);

    await admin.db
      .updateTable('tasks')
      .set({ title: '新标题 uvw', search_text: '新标题 uvw' })
      .where('task_id', '=', ids[2]!)
      .execute();
    expect(await search('旧标题 xyz')).toMatchObject({ items: [], total: 0 });
    expect(await search('新标题 uvw')).toMatchObject({ items: [{ task_id: ids[2] }], total: 1 });
  });

  it('a whole order number finds its task by the exact index; a part of it still finds it by substring', async () => {
    type ListBody = { items: Array<{ task_id: string }>; total: number };
    const search = async (q: string) =>
      (await op.get(`/api/tasks?q=${encodeURIComponent(q)}&limit=100`)).body as ListBody;
    const res = await draftOn('937122477399', { max_total_price_cent: 700, title: '订单号测试' });
    const taskId = (res.body as { task_id: string }).task_id;
    const pddOrderNo = '260101987654321098';
    await admin.db
      .updateTable('tasks')
      .set({ pdd_order_no: pddOrderNo, syb_order_no: 'SHP2601XYZ77' })
      .where('task_id', '=', taskId)
      .execute();
    expect(await search(pddOrderNo)).toMatchObject({ items: [{ task_id: taskId }], total: 1 });
    expect(await search('SHP2601XYZ77')).toMatchObject({ items: [{ task_id: taskId }], total: 1 });
    // not a whole identifier any task carries: the substring search answers, as before
    expect(await search(pddOrderNo.slice(2, 14))).toMatchObject({ items: [{ task_id: taskId }], total: 1 });
    expect(await search('shp2601xyz77')).toMatchObject({ items: [{ task_id: taskId }], total: 1 });
    expect(await search('260101987654321099')).toMatchObject({ items: [], total: 0 });
  });
});
