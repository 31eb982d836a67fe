import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

describe('GET /api/tasks — keyset pagination and search', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  beforeAll(async () => {
    admin = await startTestAdmin();
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('pages through every task exactly once and finds one by text', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await op.post('/api/tasks', {
        type: 'purchase',
        pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=93712247737${i}`,
        pdd_options: { 颜色分类: '黑色' },
        quantity: 1,
        max_total_price_cent: 1000 + i,
        title: `标题 ${i}`,
      });
      expect(res.status).toBe(201);
      ids.push((res.body as { task_id: string }).task_id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await op.get(`/api/tasks?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      const body = res.body as { items: Array<{ task_id: string; pdd_options: Record<string, string> }>; next_cursor: string | null };
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
});
