import { collectedInTestDb } from '../collected';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { upload } from './helpers';
import { buildWorkbook, type ExportRow } from './workbook';

/**
 * `%` and `_` in search text are literal in every list that searches by substring
 * (admin/db/like.ts: LIKE … ESCAPE '\'). Without the ESCAPE clause SQLite reads the escaped
 * pattern's backslash as a character and `a_b` matches nothing.
 */
describe('search text is literal: _ and % are not wildcards', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  const titles = ['a_b', 'axb', '50%', '50x', 'c\\d'];
  const header = ['商品ID', '商品名稱', '商品規格ID', '商品規格', '主商品貨號'];
  const goodsIdOf = (i: number) => String(31000000000 + i);
  const taskIds = new Map<string, string>();

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    const rows: ExportRow[] = [];
    titles.forEach((title, i) => {
      rows.push({ 商品ID: goodsIdOf(i), 商品名稱: title, 商品規格ID: '-', 主商品貨號: `K-${i}` });
      rows.push({ 商品ID: goodsIdOf(i), 商品名稱: title, 商品規格ID: String(32000000000 + i), 商品規格: '黑色,M' });
    });
    const res = await upload(op, await buildWorkbook(header, rows));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ products: titles.length, skus: titles.length, failed_rows: [] });

    for (const [i, title] of titles.entries()) {
      // PDD titles come from a collect: the simulator's reference goods under this title, on goods linked through the API.
      const linked = await op.put(`/api/shopee/products/${goodsIdOf(i)}/pdd-link`, {
        url: `https://mobile.yangkeduo.com/goods.html?goods_id=${41000000000 + i}`,
      });
      expect(linked.status).toBe(200);
      await collectedInTestDb(admin.db, String(41000000000 + i), {
        copyOf: '937122477375',
        asCollected: (g) => ({ ...g, title }),
      });

      const task = await op.post('/api/tasks', {
        type: 'purchase',
        pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${41000000000 + i}`,
        pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
        quantity: 1,
        max_total_price_cent: 1000,
        title,
      });
      expect(task.status).toBe(201);
      taskIds.set(title, (task.body as { task_id: string }).task_id);
    }
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function titlesFound(path: string, q: string): Promise<string[]> {
    const res = await op.get(`${path}?q=${encodeURIComponent(q)}&limit=100`);
    expect(res.status).toBe(200);
    return (res.body as { items: Array<{ title: string | null }> }).items.map((i) => i.title ?? '').sort();
  }

  it.each([
    ['/api/shopee/products', 'Shopee 商品'],
    ['/api/pdd/products', 'PDD 商品'],
    ['/api/tasks', 'tasks'],
  ])('%s (%s): a_b finds a_b and not axb; 50%% finds 50%% and not 50x; a backslash is literal too', async (path) => {
    expect(await titlesFound(path, 'a_b')).toEqual(['a_b']);
    expect(await titlesFound(path, '50%')).toEqual(['50%']);
    expect(await titlesFound(path, '_')).toEqual(['a_b']);
    expect(await titlesFound(path, 'c\\d')).toEqual(['c\\d']);
    // plain substrings still match, both of a pair
    expect(await titlesFound(path, 'b')).toEqual(['a_b', 'axb']);
    expect(await titlesFound(path, '50')).toEqual(['50%', '50x']);
  });

  it('the Shopee list also searches main_sku_code by substring, literally', async () => {
    const res = await op.get(`/api/shopee/products?q=${encodeURIComponent('K-')}`);
    expect((res.body as { items: unknown[] }).items).toHaveLength(titles.length);
    const none = await op.get(`/api/shopee/products?q=${encodeURIComponent('K_0')}`);
    expect((none.body as { items: unknown[] }).items).toEqual([]);
  });
});
