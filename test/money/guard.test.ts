import type { AttentionQueue } from '../../domain/attention';
import { toUtcTimestamp } from '../../domain/time';
import { skusJson, upload } from '../catalog/helpers';
import { buildWorkbook } from '../catalog/workbook';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

/**
 * The minimum margin at 从订单生成采购草稿 (admin/syb/drafts.ts): a line that would earn less than
 * 设置 → 最低毛利率 at the draft's cap is not drafted and says its figures; the operator may draft
 * it on its own anyway. A re-collect that raises the price above a draft's cap flags the draft,
 * its order line and 需处理, worked out from the latest collect at each read.
 */
const SHOPEE = '44400000001';
const PDD = '770001';
const URL = `https://mobile.yangkeduo.com/goods.html?goods_id=${PDD}`;
/** 0.225 CNY per TWD */
const RATE = 225_000;

interface Result {
  syb_id: string;
  task_id: string | null;
  error: { code: string; message: string; margin?: Record<string, number | null> | null } | null;
}

describe('the minimum margin and price rises', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let stamp = 0;
  let collectedAt = '';

  const recollect = (priceCent: number) => {
    // each collect lands at its own time, after the drafts, as a phone's does
    collectedAt = toUtcTimestamp(new Date(Date.now() + 60_000 + ++stamp * 1000));
    return admin.db
      .updateTable('pdd_products')
      .set({
        collect_status: 'collected',
        title: 'PDD 外套',
        collected_at: collectedAt,
        updated_at: collectedAt,
        skus_json: JSON.stringify(skusJson(PDD, [{ color: '黑色', size: 'M', price_cent: priceCent }])),
      })
      .where('goods_id', '=', PDD)
      .execute();
  };
  const line = (n: number, priceTwdCent: number, quantity = 1) => {
    const now = '2026-08-07T08:00:00Z';
    return admin.db
      .insertInto('syb_orders')
      .values({
        syb_id: `SH-M-L${n}`,
        syb_order_no: `TW-M00${n}`,
        title: '外套',
        product_spec: '黑色,M',
        shopee_goods_id: SHOPEE,
        shopee_sku_id: '8101',
        quantity,
        price_twd_cent: priceTwdCent,
        image_url: null,
        syb_data: '{}',
        created_at: now,
        first_synced_at: now,
        updated_at: now,
      })
      .execute();
  };
  const draft = async (ids: string[], extra: Record<string, unknown> = {}): Promise<Result[]> => {
    const res = await op.post('/api/tasks/from-orders', { syb_ids: ids, ...extra });
    expect(res.status).toBe(200);
    return (res.body as { results: Result[] }).results;
  };
  const settings = async (values: Record<string, number | null>) =>
    expect((await op.put('/api/settings', values)).status).toBe(200);
  const warnings = async (taskId: string) =>
    ((await op.get(`/api/tasks/${taskId}`)).body as { warnings: Array<{ code: string; message: string }> }).warnings;
  const attention = async () => ((await op.get('/api/attention')).body as AttentionQueue).items;
  const orderLine = async (sybId: string) =>
    (
      (await op.get('/api/syb/orders?limit=200')).body as {
        items: Array<{ syb_id: string; task_price_flag: { code: string; message: string } | null }>;
      }
    ).items.find((l) => l.syb_id === sybId)!;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    const res = await upload(
      op,
      await buildWorkbook(
        ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
        [
          { 商品ID: SHOPEE, 商品名稱: '外套', 商品規格ID: '-' },
          { 商品ID: SHOPEE, 商品名稱: '外套', 商品規格ID: '8101', 商品規格: '黑色,M' },
        ],
      ),
    );
    expect(res.status).toBe(200);
    expect((await op.put(`/api/shopee/products/${SHOPEE}/pdd-link`, { url: URL })).status).toBe(200);
    await recollect(1288);
    expect((await op.put('/api/mappings/8101', { pdd_options: { color: '黑色', size: 'M' } })).status).toBe(200);
    // cap = 1288 + the default tolerance 500 = ¥17.88
    await line(1, 10_000); // NT$100 → ¥22.50: margin ¥4.62, 20.53%
    await line(2, 20_000); // NT$200 → ¥45.00: margin ¥27.12, 60.27%
    await line(3, 10_000);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('without a minimum (or a rate) nothing is judged; below the minimum a line is not drafted and says its figures', async () => {
    await settings({ 'money.min_margin_bp': 2500 }); // no rate yet: no guard
    const [free] = await draft(['SH-M-L3']);
    expect(free).toMatchObject({ task_id: expect.any(String), error: null });

    await settings({ 'money.twd_to_cny_rate_ppm': RATE });
    const results = await draft(['SH-M-L1', 'SH-M-L2']);
    expect(results[1]).toMatchObject({ syb_id: 'SH-M-L2', task_id: expect.any(String), error: null });
    expect(results[0]).toMatchObject({
      syb_id: 'SH-M-L1',
      task_id: null,
      error: {
        code: 'MARGIN_TOO_LOW',
        margin: {
          sale_cny_cent: 2250,
          fees_cny_cent: 0,
          cost_cny_cent: 1788,
          margin_cny_cent: 462,
          margin_bp: 2053,
          min_margin_bp: 2500,
        },
      },
    });
    expect(results[0]!.error!.message).toMatch(/毛利率 20\.53% 低于最低毛利率 25\.00%/u);
    expect(await admin.db.selectFrom('tasks').select('task_id').where('syb_id', '=', 'SH-M-L1').execute()).toEqual([]);

    // fees count: Shopee's cut of 10% and ¥1 a line
    await settings({ 'money.platform_fee_bp': 1000, 'money.line_fee_cny_cent': 100 });
    const [withFees] = await draft(['SH-M-L1']);
    expect(withFees!.error?.margin).toMatchObject({ fees_cny_cent: 225 + 100, margin_cny_cent: 462 - 325 });
    await settings({ 'money.platform_fee_bp': 0, 'money.line_fee_cny_cent': 0 });
  });

  it('the operator drafts a line below the minimum on its own, on record; its draft warns MARGIN_TOO_LOW', async () => {
    const [taken] = await draft(['SH-M-L1'], { allow_low_margin: true });
    expect(taken).toMatchObject({ task_id: expect.any(String), error: null });
    const taskId = taken!.task_id!;
    const audit = await admin.db
      .selectFrom('audit_log')
      .select('details_json')
      .where('action', '=', 'task.create.low_margin')
      .where('target_id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details_json ?? 'null')).toMatchObject({
      syb_id: 'SH-M-L1',
      margin_bp: 2053,
      min_margin_bp: 2500,
    });
    expect(await warnings(taskId)).toEqual([
      { code: 'MARGIN_TOO_LOW', message: expect.stringMatching(/按最高总价 ¥17\.88 估算/u) as unknown },
    ]);
    // taken knowingly, within its cap: nothing new for 需处理
    expect((await attention()).map((i) => i.id)).not.toContain(taskId);
  });

  it('a re-collect above the cap flags the draft, its order line and 需处理; falling back clears it', async () => {
    const taskId = (
      await admin.db.selectFrom('tasks').select('task_id').where('syb_id', '=', 'SH-M-L2').executeTakeFirstOrThrow()
    ).task_id;
    expect(await warnings(taskId)).toEqual([]);
    expect((await orderLine('SH-M-L2')).task_price_flag).toBeNull();

    await recollect(2000); // above the cap ¥17.88; ¥45.00 − ¥20.00 still earns 55.56%
    expect((await warnings(taskId)).map((w) => w.code)).toEqual(['CAP_BELOW_COLLECTED_PRICE']);
    expect((await attention()).find((i) => i.id === taskId)).toMatchObject({
      kind: 'task',
      reason_code: 'CAP_BELOW_COLLECTED_PRICE',
      reason_zh: expect.stringMatching(/采集价格上涨.*高于最高总价 ¥17\.88/u) as unknown,
      since: collectedAt,
    });
    expect((await orderLine('SH-M-L2')).task_price_flag).toMatchObject({ code: 'CAP_BELOW_COLLECTED_PRICE' });

    await recollect(4000); // ¥45.00 − ¥40.00 = ¥5.00, 11.11%: below the minimum
    expect((await warnings(taskId)).map((w) => w.code)).toEqual(['CAP_BELOW_COLLECTED_PRICE', 'MARGIN_TOO_LOW']);
    const flagged = (await attention()).find((i) => i.id === taskId);
    expect(flagged).toMatchObject({ reason_code: 'MARGIN_TOO_LOW' });
    expect(flagged!.reason_zh).toMatch(/毛利率 11\.11% 低于最低毛利率 25\.00%：按采集单价 × 数量 ¥40\.00 估算/u);
    expect((await orderLine('SH-M-L2')).task_price_flag).toMatchObject({ code: 'MARGIN_TOO_LOW' });

    await recollect(1288);
    expect(await warnings(taskId)).toEqual([]);
    expect((await attention()).map((i) => i.id)).not.toContain(taskId);
    expect((await orderLine('SH-M-L2')).task_price_flag).toBeNull();
  });
});
