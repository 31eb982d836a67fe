import { skusJson } from '../catalog/helpers';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

/**
 * 开始采购 re-checks each draft against the latest collect (admin/purchase/start-recheck.ts): a
 * combination a re-collect found without a price, or sold out, refuses the start — all or
 * nothing, nothing authorised. A price carried over from another combination (推测价格) is a price.
 */
const PDD = '770002';
const URL = `https://mobile.yangkeduo.com/goods.html?goods_id=${PDD}`;

describe('开始采购 against the latest collect', () => {
  let admin: TestAdmin;
  let op: OperatorClient;

  const collect = (skus: Parameters<typeof skusJson>[1], at: string) =>
    admin.db
      .updateTable('pdd_products')
      .set({
        collect_status: 'collected',
        collected_at: at,
        updated_at: at,
        skus_json: JSON.stringify(skusJson(PDD, skus)),
      })
      .where('goods_id', '=', PDD)
      .execute();
  const draft = async (color: string, size: string): Promise<{ task_id: string; version: number }> => {
    const res = await op.post('/api/tasks', {
      type: 'purchase',
      pdd_goods_url: URL,
      pdd_options: { 颜色分类: color, 尺码: size },
      quantity: 1,
      max_total_price_cent: 3000,
    });
    expect(res.status).toBe(201);
    const { task_id, version } = res.body as { task_id: string; version: number };
    return { task_id, version };
  };
  const states = async (ids: string[]) =>
    (
      await admin.db
        .selectFrom('tasks')
        .select(['task_id', 'status', 'version'])
        .where('task_id', 'in', ids)
        .orderBy('task_id')
        .execute()
    ).map((t) => `${t.task_id}:${t.status}:${t.version}`);

  beforeAll(async () => {
    admin = await startTestAdmin();
    op = await loginOperator(admin);
    await admin.db
      .insertInto('pdd_products')
      .values({
        goods_id: PDD,
        url: URL,
        title: 'PDD 外套',
        shop_name: null,
        skus_json: null,
        collect_status: 'pending',
        collect_msg: null,
        collect_code: null,
        artifact_ref: null,
        collected_at: null,
        collect_workflow_id: null,
        collect_run_id: null,
        collect_device_id: null,
        deleted_at: null,
        search_text: null,
        created_at: '2026-08-07T07:00:00Z',
        updated_at: '2026-08-07T07:00:00Z',
      })
      .execute();
    await collect(
      [
        { color: '黑色', size: 'M', price_cent: 1288 },
        { color: '黑色', size: 'L', price_cent: 1500 },
        { color: '白色', size: 'L', price_cent: 1390 },
      ],
      '2026-08-07T08:00:00Z',
    );
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('refuses a draft whose combination now has no price (PRICE_UNKNOWN) or is sold out, starting none', async () => {
    const noPrice = await draft('黑色', 'M');
    const soldOut = await draft('黑色', 'L');
    const inferred = await draft('白色', 'L');
    // the re-collect: 黑色/M read without a price, 黑色/L sold out, 白色/L priced while another
    // combination was selected (skusJson observes only the first row): 推测价格
    await collect(
      [
        { color: '黑色', size: 'M', price_cent: null },
        { color: '黑色', size: 'L', price_cent: 1500, available: false },
        { color: '白色', size: 'L', price_cent: 1390 },
      ],
      '2026-08-07T09:00:00Z',
    );
    const all = [noPrice, soldOut, inferred];
    const ids = all.map((t) => t.task_id);

    const res = await op.post('/api/tasks/start', { tasks: all });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: {
        code: 'START_REFUSED',
        details: {
          tasks: [
            {
              task_id: noPrice.task_id,
              code: 'PRICE_UNKNOWN',
              message: expect.stringMatching(/最新采集没有读到「黑色 \/ M」的价格/u) as unknown,
            },
            {
              task_id: soldOut.task_id,
              code: 'OPTION_OUT_OF_STOCK',
              message: expect.stringMatching(/「黑色 \/ L」缺货/u) as unknown,
            },
          ],
        },
      },
    });
    expect(await states(ids)).toEqual(ids.map((id) => `${id}:DRAFT:1`).sort());
    expect(await admin.db.selectFrom('order_authorizations').select('id').execute()).toEqual([]);

    // a stale version is named for what it is, beside the collect's refusals
    const mixed = await op.post('/api/tasks/start', { tasks: [{ ...noPrice, version: 7 }, soldOut] });
    expect(mixed.body).toMatchObject({
      error: {
        code: 'START_REFUSED',
        details: {
          tasks: [
            { task_id: noPrice.task_id, code: 'VERSION_CONFLICT' },
            { task_id: soldOut.task_id, code: 'OPTION_OUT_OF_STOCK' },
          ],
        },
      },
    });
    expect(await admin.db.selectFrom('order_authorizations').select('id').execute()).toEqual([]);

    // 推测价格 is a price: 白色/L starts
    const started = await op.post('/api/tasks/start', { tasks: [inferred] });
    expect(started.status).toBe(200);
    expect(await states([inferred.task_id])).toEqual([`${inferred.task_id}:PENDING:2`]);
  });
});
