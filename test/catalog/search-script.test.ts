import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { Migrator, sql } from 'kysely';
import { catalogActivities } from '../../activities/admin/catalog';
import { openAdminDb } from '../../admin/db/database';
import { migrationProvider } from '../../migrations';
import { loginOperator, startTestAdmin, tempDataDir, type OperatorClient, type TestAdmin } from '../harness';
import { skusJson, upload } from './helpers';
import { buildWorkbook } from './workbook';

/**
 * Search ignores simplified vs traditional characters (domain/catalog-search.ts): Shopee titles
 * come traditional from the export, PDD titles simplified from a collect, operators type either.
 * Every row is written through the path that writes it in production (import, collect activity,
 * draft route), so a writer that forgets `search_text` fails here.
 */
describe('search: simplified and traditional spellings find each other; lists count their rows', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  const SHOPEE_SUIT = '71000000001';
  const SHOPEE_SHIRT = '71000000002';
  const PDD_SUIT = '81000000001';
  const PDD_SHIRT = '81000000002';

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    const header = ['商品ID', '商品名稱', '商品規格ID', '商品規格'];
    const res = await upload(
      op,
      await buildWorkbook(header, [
        { 商品ID: SHOPEE_SUIT, 商品名稱: '韓版西裝外套 男', 商品規格ID: '-' },
        { 商品ID: SHOPEE_SUIT, 商品名稱: '韓版西裝外套 男', 商品規格ID: '72000000001', 商品規格: '黑色,M' },
        { 商品ID: SHOPEE_SHIRT, 商品名稱: '純棉襯衫', 商品規格ID: '-' },
        { 商品ID: SHOPEE_SHIRT, 商品名稱: '純棉襯衫', 商品規格ID: '72000000002', 商品規格: '白色,L' },
      ]),
    );
    expect(res.status).toBe(200);

    // The PDD titles arrive simplified, through the collect activity that stores them.
    const acts = catalogActivities(admin.db);
    for (const [shopee, pdd, title, shop] of [
      [SHOPEE_SUIT, PDD_SUIT, '西装外套男韩版', '优品服饰店'],
      [SHOPEE_SHIRT, PDD_SHIRT, '纯棉衬衫', '测试旗舰店'],
    ] as const) {
      expect(
        (
          await op.put(`/api/shopee/products/${shopee}/pdd-link`, {
            url: `https://mobile.yangkeduo.com/goods.html?goods_id=${pdd}`,
          })
        ).status,
      ).toBe(200);
      const env = new MockActivityEnvironment(
        { workflowExecution: { workflowId: `collect/${pdd}`, runId: 'run-1' } },
        { logger: new DefaultLogger('ERROR') },
      );
      const result = { ...skusJson(pdd, [{ color: '黑色', size: 'M', price_cent: 5990 }]), title, shop_name: shop };
      expect(
        await env.run(acts.saveCollectResult, {
          pddGoodsId: pdd,
          workflowId: `collect/${pdd}`,
          deviceId: 'phone-1',
          result,
        }),
      ).toEqual({ status: 'collected', skus: 1 });
    }

    // A task named in traditional characters, one without a title of its own (it takes the PDD title).
    for (const body of [
      { pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${PDD_SUIT}`, title: '西裝外套 補貨' },
      { pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${PDD_SHIRT}` },
    ]) {
      expect(
        (
          await op.post('/api/tasks', {
            type: 'purchase',
            pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
            quantity: 1,
            max_total_price_cent: 9000,
            ...body,
          })
        ).status,
      ).toBe(201);
    }
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function found(path: string, q: string): Promise<{ titles: string[]; total: number }> {
    const res = await op.get(`${path}?q=${encodeURIComponent(q)}&limit=100`);
    expect(res.status).toBe(200);
    const body = res.body as { items: Array<{ title: string | null }>; total: number };
    return { titles: body.items.map((i) => i.title ?? '').sort(), total: body.total };
  }

  it('商品: a simplified query finds the traditional Shopee title, a traditional one still does', async () => {
    expect(await found('/api/shopee/products', '西装外套')).toEqual({ titles: ['韓版西裝外套 男'], total: 1 });
    expect(await found('/api/shopee/products', '西裝外套')).toEqual({ titles: ['韓版西裝外套 男'], total: 1 });
    expect(await found('/api/shopee/products', '纯棉衬衫')).toEqual({ titles: ['純棉襯衫'], total: 1 });
    expect(await found('/api/shopee/products', '韩版')).toEqual({ titles: ['韓版西裝外套 男'], total: 1 });
    expect(await found('/api/shopee/products', '衬衫外套')).toEqual({ titles: [], total: 0 });
  });

  it('PDD 商品: a traditional query finds the simplified collected title and shop', async () => {
    expect(await found('/api/pdd/products', '西裝外套')).toEqual({ titles: ['西装外套男韩版'], total: 1 });
    expect(await found('/api/pdd/products', '純棉襯衫')).toEqual({ titles: ['纯棉衬衫'], total: 1 });
    expect(await found('/api/pdd/products', '優品服飾')).toEqual({ titles: ['西装外套男韩版'], total: 1 });
    // a query never matches across the title and the shop name
    expect(await found('/api/pdd/products', '韩版优品')).toEqual({ titles: [], total: 0 });
  });

  it('采购任务: both spellings find the task title, whether typed or taken from the PDD goods', async () => {
    expect(await found('/api/tasks', '西装外套')).toEqual({ titles: ['西裝外套 補貨'], total: 1 });
    expect(await found('/api/tasks', '补货')).toEqual({ titles: ['西裝外套 補貨'], total: 1 });
    expect(await found('/api/tasks', '純棉')).toEqual({ titles: ['纯棉衬衫'], total: 1 });
  });

  it('total counts every matching row, not the page: limit 1 still says all of them', async () => {
    // the task list holds the two purchase tasks only: collect runs live on their PDD goods
    for (const [path, total] of [
      ['/api/shopee/products', 2],
      ['/api/pdd/products', 2],
      ['/api/tasks', 2],
    ] as const) {
      const first = await op.get(`${path}?limit=1`);
      expect(first.status).toBe(200);
      const body = first.body as { items: unknown[]; next_cursor: string | null; total: number };
      expect({ path, items: body.items.length, total: body.total, more: body.next_cursor !== null }).toEqual({
        path,
        items: 1,
        total,
        more: true,
      });
      const second = (await op.get(`${path}?limit=1&cursor=${encodeURIComponent(body.next_cursor ?? '')}`)).body as {
        items: unknown[];
        total: number;
      };
      expect({ path, items: second.items.length, total: second.total }).toEqual({ path, items: 1, total });
    }
    const filtered = (await op.get('/api/shopee/products?state=unlinked')).body as { total: number };
    expect(filtered.total).toBe(0);
  });
});

describe('migration 0030 fills search_text for rows written before it', () => {
  it('a traditional title stored before the migration is found by its simplified spelling after it', async () => {
    const db = openAdminDb(`${tempDataDir('migration')}/admin.db`);
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0021_submission_abandoned')).error).toBeUndefined();
      await sql`insert into shopee_products (goods_id, title, created_at, updated_at) values ('1', '西裝外套', '2026-08-07T08:00:00Z', '2026-08-07T08:00:00Z')`.execute(
        db,
      );
      await sql`insert into pdd_products (goods_id, url, title, shop_name, created_at, updated_at) values ('2', 'u', '西装外套', '優品店', '2026-08-07T08:00:00Z', '2026-08-07T08:00:00Z')`.execute(
        db,
      );
      await sql`insert into pdd_products (goods_id, url, created_at, updated_at) values ('3', 'u', '2026-08-07T08:00:00Z', '2026-08-07T08:00:00Z')`.execute(
        db,
      );
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await db.selectFrom('shopee_products').select('search_text').execute()).toEqual([
        { search_text: '西装外套' },
      ]);
      expect(
        await db.selectFrom('pdd_products').select(['goods_id', 'search_text']).orderBy('goods_id').execute(),
      ).toEqual([
        { goods_id: '2', search_text: '西装外套\n优品店' },
        { goods_id: '3', search_text: null },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
