import { taskIdPrefix } from '../../admin/purchase/drafts';
import { skusJson, upload } from '../catalog/helpers';
import { collectedInTestDb } from '../collected';
import { buildWorkbook } from '../catalog/workbook';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

/**
 * Purchase drafts against what the admin knows: options judged by the collected dimensions (the
 * one check behind create, edit and order-line drafts), drafts edited as new versions, finished
 * tasks hidden, and the two order numbers in the task view.
 */
const SHOPEE = '33300000001';
const PDD = '990001';
const URL = `https://mobile.yangkeduo.com/goods.html?goods_id=${PDD}`;
const UNCOLLECTED_URL = 'https://mobile.yangkeduo.com/goods.html?goods_id=990002';
/** a goods of the phone simulator's catalog, never collected in this admin until the test says so */
const RED_S = { goodsId: '600000000101', options: { 颜色: '红', 尺码: 'S' } };

interface Task {
  task_id: string;
  version: number;
  status: string;
  pdd_options: Record<string, string>;
  quantity: number;
  max_total_price_cent: number;
  execution_mode: string;
  syb_order_no: string | null;
  pdd_order_no: string | null;
  syb_id: string | null;
  removed_at: string | null;
  warnings: Array<{ code: string; message: string }>;
  timeline: Array<{ status: string; reason: string | null; actor: string | null }>;
}

describe('purchase drafts from what is known', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  const draft = (options: Record<string, string>, extra: Record<string, unknown> = {}) =>
    op.post('/api/tasks', {
      type: 'purchase',
      pdd_goods_url: URL,
      pdd_options: options,
      quantity: 1,
      max_total_price_cent: 2000,
      ...extra,
    });
  const created = async (
    options: Record<string, string> = { 颜色分类: '黑色', 尺码: 'M' },
    extra: Record<string, unknown> = {},
  ) => {
    const res = await draft(options, extra);
    expect(res.status).toBe(201);
    return res.body as { task_id: string; version: number };
  };
  const task = async (id: string) => (await op.get(`/api/tasks/${id}`)).body as Task;
  const taskCount = async () => (await admin.db.selectFrom('tasks').select('task_id').execute()).length;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    const res = await upload(
      op,
      await buildWorkbook(
        ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
        [
          { 商品ID: SHOPEE, 商品名稱: '外套', 商品規格ID: '-' },
          { 商品ID: SHOPEE, 商品名稱: '外套', 商品規格ID: '8001', 商品規格: '黑色,M' },
        ],
      ),
    );
    expect(res.status).toBe(200);
    expect((await op.put(`/api/shopee/products/${SHOPEE}/pdd-link`, { url: URL })).status).toBe(200);
    // what a phone's collect stores (the collect itself is tested in test/catalog and test/device)
    await admin.db
      .updateTable('pdd_products')
      .set({
        collect_status: 'collected',
        title: 'PDD 外套',
        collected_at: '2026-08-07T08:00:00Z',
        skus_json: JSON.stringify(
          skusJson(PDD, [
            { color: '黑色', size: 'M', price_cent: 1288 },
            { color: '白色', size: 'L', price_cent: 1390 },
            { color: '黑色', size: 'L', price_cent: 1500, available: false },
            { color: '白色', size: 'S', price_cent: null },
          ]),
        ),
      })
      .where('goods_id', '=', PDD)
      .execute();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('numbers a task by the Taipei business day: 17:00 UTC is already tomorrow there', async () => {
    expect(taskIdPrefix('2026-12-06T15:59:59Z')).toBe('PDD-20261206-');
    expect(taskIdPrefix('2026-12-06T16:00:00Z')).toBe('PDD-20261207-');
    const { task_id } = await created();
    expect(task_id.startsWith(taskIdPrefix(new Date().toISOString().slice(0, 19) + 'Z'))).toBe(true);
  });

  it('knows the purchase of a mapped SKU: current goods, options by dimension name, cap = price × quantity + tolerance', async () => {
    expect((await op.get('/api/tasks/known?shopee_sku_id=8001')).body).toMatchObject({ error: { code: 'NO_MAPPING' } });
    expect((await op.put('/api/mappings/8001', { pdd_options: { color: '黑色', size: 'M' } })).status).toBe(200);
    const res = await op.get('/api/tasks/known?shopee_sku_id=8001&quantity=2');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      pdd_goods_id: PDD,
      pdd_goods_url: URL,
      pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
      quantity: 2,
      max_total_price_cent: 1288 * 2 + 500,
      title: 'PDD 外套',
      price_inferred: false,
    });
    expect((await op.get('/api/tasks/known?shopee_sku_id=999')).status).toBe(404);
    expect((await op.get('/api/tasks/known?shopee_sku_id=abc')).status).toBe(400);
  });

  it('a cap from a price inferred by colour sampling says so: the pre-fill flags it, the draft warns CAP_FROM_INFERRED_PRICE', async () => {
    // 白色/L was priced while another combination was selected (price_observed_at {}): inferred
    expect((await op.put('/api/mappings/8001', { pdd_options: { color: '白色', size: 'L' } })).status).toBe(200);
    try {
      expect((await op.get('/api/tasks/known?shopee_sku_id=8001')).body).toMatchObject({
        pdd_options: { 颜色分类: '白色', 尺码: 'L' },
        max_total_price_cent: 1390 + 500,
        price_inferred: true,
      });
    } finally {
      expect((await op.put('/api/mappings/8001', { pdd_options: { color: '黑色', size: 'M' } })).status).toBe(200);
    }
    const res = await draft({ 颜色分类: '白色', 尺码: 'L' }, { max_total_price_cent: 1890 });
    expect(res.status).toBe(201);
    const warning = {
      code: 'CAP_FROM_INFERRED_PRICE',
      message: expect.stringMatching(/采集单价 ¥13\.90 是推测价格/u) as unknown,
    };
    expect((res.body as { warnings: unknown }).warnings).toEqual([warning]);
    expect((await task((res.body as { task_id: string }).task_id)).warnings).toEqual([warning]);
    // the measured combination carries no such warning
    expect(((await draft({ 颜色分类: '黑色', 尺码: 'M' })).body as { warnings: unknown }).warnings).toEqual([]);
  });

  it('refuses options the collected goods does not offer, in Chinese, writing nothing', async () => {
    const before = await taskCount();
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ 颜色分类: '黑', 尺码: 'M' }, 'OPTION_VALUE_UNKNOWN', /颜色分类.*没有「黑」.*黑色、白色/u],
      [{ 颜色分类: '黑色' }, 'OPTION_DIMENSION_MISSING', /缺少规格「尺码」/u],
      [{ 颜色分类: '黑色', 尺码: 'M', 款式: '长款' }, 'OPTION_DIMENSION_UNKNOWN', /没有规格「款式」/u],
      [{ 颜色分类: '白色', 尺码: 'M' }, 'OPTION_VALUE_UNKNOWN', /没有「白色 \/ M」这个规格组合/u],
      [{ 颜色分类: '黑色', 尺码: 'L' }, 'OPTION_OUT_OF_STOCK', /缺货/u],
    ];
    for (const [options, code, message] of cases) {
      const res = await draft(options);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code } });
      expect((res.body as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(await taskCount()).toBe(before);
  });

  it('refuses a quantity over the limit with both numbers, on create and on edit, writing nothing', async () => {
    const before = await taskCount();
    const over = await draft({ 颜色分类: '黑色', 尺码: 'M' }, { quantity: 11, max_total_price_cent: 20_000 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      error: {
        code: 'QUANTITY_OVER_LIMIT',
        message: '数量 11 超过上限 10',
        details: { quantity: 11, max_quantity: 10 },
      },
    });
    expect(await taskCount()).toBe(before);

    const t = await created();
    const edit = await op.request('PATCH', `/api/tasks/${t.task_id}`, { version: t.version, quantity: 12 });
    expect(edit.status).toBe(400);
    expect(edit.body).toMatchObject({ error: { code: 'QUANTITY_OVER_LIMIT', message: '数量 12 超过上限 10' } });
    expect(await task(t.task_id)).toMatchObject({ version: t.version, quantity: 1 });
    // the limit itself is allowed
    expect((await draft({ 颜色分类: '黑色', 尺码: 'M' }, { quantity: 10, max_total_price_cent: 20_000 })).status).toBe(
      201,
    );
  });

  it('refuses an option whose collected price is unknown (PRICE_UNKNOWN), on create and on edit', async () => {
    const before = await taskCount();
    const res = await draft({ 颜色分类: '白色', 尺码: 'S' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'PRICE_UNKNOWN' } });
    expect((res.body as { error: { message: string } }).error.message).toMatch(/「白色 \/ S」.*没有读到价格/u);
    expect(await taskCount()).toBe(before);
    const t = await created();
    const edit = await op.request('PATCH', `/api/tasks/${t.task_id}`, {
      version: t.version,
      pdd_options: { 颜色分类: '白色', 尺码: 'S' },
    });
    expect(edit.status).toBe(400);
    expect(edit.body).toMatchObject({ error: { code: 'PRICE_UNKNOWN' } });
    expect((await task(t.task_id)).pdd_options).toEqual({ 颜色分类: '黑色', 尺码: 'M' });
  });

  it('refuses a goods never collected (NOT_COLLECTED) on create and on a goods-changing edit, writing nothing; after a collect it is drafted', async () => {
    const auditCount = async () => (await admin.db.selectFrom('audit_log').select('id').execute()).length;
    const simGoods = {
      id: RED_S.goodsId,
      url: `https://mobile.yangkeduo.com/goods.html?goods_id=${RED_S.goodsId}`,
      options: RED_S.options,
    };
    const t = await created();
    const [tasksBefore, auditBefore] = [await taskCount(), await auditCount()];
    for (const goods of [{ id: '990002', url: UNCOLLECTED_URL, options: { 颜色: '随便' } }, simGoods]) {
      const res = await draft(goods.options, { pdd_goods_url: goods.url });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: {
          code: 'NOT_COLLECTED',
          message: expect.stringContaining('no collect result') as unknown,
          details: { pdd_goods_id: goods.id },
        },
      });
      // an edit moving a draft onto it, with its options or with the draft's own
      for (const change of [{ pdd_goods_url: goods.url, pdd_options: goods.options }, { pdd_goods_url: goods.url }]) {
        const edit = await op.request('PATCH', `/api/tasks/${t.task_id}`, { version: t.version, ...change });
        expect(edit.status).toBe(409);
        expect(edit.body).toMatchObject({ error: { code: 'NOT_COLLECTED' } });
      }
    }
    expect([await taskCount(), await auditCount()]).toEqual([tasksBefore, auditBefore]);
    expect(await task(t.task_id)).toMatchObject({ version: t.version, pdd_options: { 颜色分类: '黑色', 尺码: 'M' } });

    // the same simulator goods once a phone collected it
    await collectedInTestDb(admin.db, RED_S.goodsId);
    const made = await draft(simGoods.options, { pdd_goods_url: simGoods.url });
    expect(made.status).toBe(201);
    expect(await task((made.body as { task_id: string }).task_id)).toMatchObject({ pdd_options: RED_S.options });
    const moved = await op.request('PATCH', `/api/tasks/${t.task_id}`, {
      version: t.version,
      pdd_goods_url: simGoods.url,
      pdd_options: simGoods.options,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ version: t.version + 1, pdd_options: RED_S.options });
  });

  it('saves a cap below collected price × quantity with the warning CAP_BELOW_COLLECTED_PRICE, gone once the cap covers it', async () => {
    const res = await draft({ 颜色分类: '黑色', 尺码: 'M' }, { quantity: 2, max_total_price_cent: 2000 });
    expect(res.status).toBe(201);
    const warning = {
      code: 'CAP_BELOW_COLLECTED_PRICE',
      message: expect.stringMatching(/最高总价 ¥20\.00 低于采集单价 ¥12\.88 × 数量 2 = ¥25\.76/u) as unknown,
    };
    expect((res.body as { warnings: unknown }).warnings).toEqual([warning]);
    const id = (res.body as { task_id: string }).task_id;
    expect((await task(id)).warnings).toEqual([warning]);
    // exactly covered is no warning
    const edited = await op.request('PATCH', `/api/tasks/${id}`, { version: 1, max_total_price_cent: 2576 });
    expect(edited.status).toBe(200);
    expect((edited.body as Task).warnings).toEqual([]);
    // a cap that covers one piece: a draft of one has no warning
    expect(((await draft({ 颜色分类: '黑色', 尺码: 'M' })).body as { warnings: unknown }).warnings).toEqual([]);
  });

  it("warns QUANTITY_DIFFERS_FROM_ORDER when the quantity is not its 顺运宝 order line's", async () => {
    const now = '2026-08-07T08:00:00Z';
    await admin.db
      .insertInto('syb_orders')
      .values({
        syb_id: 'SH-W-L1',
        syb_order_no: 'TW-W001',
        title: '外套',
        product_spec: '黑色,M',
        shopee_goods_id: SHOPEE,
        shopee_sku_id: '8001',
        quantity: 3,
        price_twd_cent: 50_000,
        image_url: null,
        syb_data: '{}',
        created_at: now,
        first_synced_at: now,
        updated_at: now,
      })
      .execute();
    const t = await created({ 颜色分类: '黑色', 尺码: 'M' }, { quantity: 3, max_total_price_cent: 9000 });
    await admin.db
      .updateTable('tasks')
      .set({ syb_id: 'SH-W-L1', syb_order_no: 'TW-W001', shopee_goods_id: SHOPEE, shopee_sku_id: '8001' })
      .where('task_id', '=', t.task_id)
      .execute();
    expect((await task(t.task_id)).warnings).toEqual([]);
    const edited = await op.request('PATCH', `/api/tasks/${t.task_id}`, { version: t.version, quantity: 2 });
    expect(edited.status).toBe(200);
    expect((edited.body as Task).warnings).toEqual([
      { code: 'QUANTITY_DIFFERS_FROM_ORDER', message: '数量 2 与顺运宝订单明细的数量 3 不同，请确认' },
    ]);
    // both at once, in that order; only the two codes exist
    const both = await op.request('PATCH', `/api/tasks/${t.task_id}`, {
      version: t.version + 1,
      max_total_price_cent: 1000,
    });
    expect((both.body as Task).warnings.map((w) => w.code)).toEqual([
      'CAP_BELOW_COLLECTED_PRICE',
      'QUANTITY_DIFFERS_FROM_ORDER',
    ]);
  });

  it('PATCH edits a draft as a new version; the start for the old version is refused; outside DRAFT it is 409', async () => {
    const t = await created();
    const edited = await op.request('PATCH', `/api/tasks/${t.task_id}`, {
      version: t.version,
      pdd_options: { 颜色分类: '白色', 尺码: 'L' },
      quantity: 2,
      max_total_price_cent: 3280,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      status: 'DRAFT',
      version: t.version + 1,
      pdd_options: { 颜色分类: '白色', 尺码: 'L' },
      quantity: 2,
      max_total_price_cent: 3280,
      execution_mode: 'dry_run',
    });

    // the edit is judged by the same check as a create, and a refused one changes nothing
    const bad = await op.request('PATCH', `/api/tasks/${t.task_id}`, {
      version: t.version + 1,
      pdd_options: { 颜色分类: '黑色', 尺码: 'L' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'OPTION_OUT_OF_STOCK' } });
    // an edit made from a stale screen
    const stale = await op.request('PATCH', `/api/tasks/${t.task_id}`, { version: t.version, quantity: 3 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: { code: 'VERSION_CONFLICT' } });
    expect(await task(t.task_id)).toMatchObject({
      version: t.version + 1,
      quantity: 2,
      pdd_options: { 颜色分类: '白色', 尺码: 'L' },
    });

    // an authorization asked for the version before the edit is refused; nothing is authorised
    const old = await op.post('/api/tasks/start', { tasks: [{ task_id: t.task_id, version: t.version }] });
    expect(old.status).toBe(409);
    expect(old.body).toMatchObject({
      error: { code: 'START_REFUSED', details: { tasks: [{ task_id: t.task_id, code: 'VERSION_CONFLICT' }] } },
    });
    expect(
      await admin.db.selectFrom('order_authorizations').select('id').where('task_id', '=', t.task_id).execute(),
    ).toEqual([]);

    const audit = await admin.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'task.edit')
      .where('target_id', '=', t.task_id)
      .execute();
    expect(audit).toHaveLength(1);

    expect((await op.post(`/api/tasks/${t.task_id}/cancel`)).status).toBe(200);
    const canceled = await task(t.task_id);
    const notDraft = await op.request('PATCH', `/api/tasks/${t.task_id}`, { version: canceled.version, quantity: 1 });
    expect(notDraft.status).toBe(409);
    expect(notDraft.body).toMatchObject({ error: { code: 'NOT_DRAFT' } });
    expect((notDraft.body as { error: { message: string } }).error.message).toMatch(/只有草稿可以编辑/u);

    const unknownField = await op.request('PATCH', `/api/tasks/${t.task_id}`, {
      version: canceled.version,
      status: 'DRAFT',
    });
    expect(unknownField.status).toBe(400);
  });

  it('hides finished tasks all or nothing, never one still in progress; 显示已隐藏 lists them again', async () => {
    const done = await created();
    const open = await created();
    expect((await op.post(`/api/tasks/${done.task_id}/cancel`)).status).toBe(200);
    // a cancel before any phone took the task still shows in its timeline
    expect((await task(done.task_id)).timeline).toEqual([
      expect.objectContaining({ status: 'CANCELED', reason: 'CANCELED_BY_OPERATOR', actor: 'admin' }),
    ]);

    const refused = await op.post('/api/tasks/hide', { task_ids: [done.task_id, open.task_id] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: { code: 'HIDE_REFUSED', details: { tasks: [{ task_id: open.task_id, code: 'NOT_FINISHED' }] } },
    });
    expect((await task(done.task_id)).removed_at).toBeNull();

    const ok = await op.post('/api/tasks/hide', { task_ids: [done.task_id] });
    expect(ok.status).toBe(200);
    expect((await task(done.task_id)).removed_at).not.toBeNull();
    const listed = async (query: string) =>
      (await op.get(`/api/tasks?limit=200${query}`)).body as { items: Array<{ task_id: string }>; total: number };
    const shown = await listed('');
    expect(shown.items.map((t) => t.task_id)).not.toContain(done.task_id);
    expect(shown.items.map((t) => t.task_id)).toContain(open.task_id);
    const all = await listed('&include_hidden=1');
    expect(all.items.map((t) => t.task_id)).toContain(done.task_id);
    expect(all.total).toBe(shown.total + 1);
    expect(
      await admin.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'task.hide')
        .where('target_id', '=', done.task_id)
        .execute(),
    ).toHaveLength(1);
  });

  it('the list holds purchase tasks only and counts them', async () => {
    const now = '2026-08-07T08:00:00Z';
    await admin.db
      .insertInto('tasks')
      .values({
        task_id: `collect-${PDD}-x`,
        task_type: 'collect',
        status: 'succeeded',
        pdd_goods_url: URL,
        pdd_goods_id: PDD,
        created_at: now,
        updated_at: '2999-01-01T00:00:00Z',
      })
      .execute();
    const res = (await op.get('/api/tasks?limit=200')).body as {
      items: Array<{ task_id: string; type: string }>;
      total: number;
    };
    expect(res.items.every((t) => t.type === 'purchase')).toBe(true);
    expect(res.total).toBe(res.items.length);
  });

  it('copy-live makes a live draft of a passed dry run only, keeping its order line, once per line', async () => {
    const t = await created();
    const refused = await op.post(`/api/tasks/${t.task_id}/copy-live`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'ACTION_NOT_ALLOWED' } });

    // The dry run itself is run by a phone in test/browser/tasks-known.test.ts; here its end state.
    await admin.db
      .updateTable('tasks')
      .set({
        status: 'DRY_RUN_PASSED',
        syb_id: 'SH-9-L1',
        syb_order_no: 'TW-0009',
        shopee_goods_id: SHOPEE,
        shopee_sku_id: '8001',
      })
      .where('task_id', '=', t.task_id)
      .execute();
    const copy = await op.post(`/api/tasks/${t.task_id}/copy-live`);
    expect(copy.status).toBe(201);
    const live = await task((copy.body as { task_id: string }).task_id);
    expect(live).toMatchObject({
      status: 'DRAFT',
      execution_mode: 'live',
      version: 1,
      pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
      quantity: 1,
      max_total_price_cent: 2000,
      syb_id: 'SH-9-L1',
      syb_order_no: 'TW-0009',
    });
    const again = await op.post(`/api/tasks/${t.task_id}/copy-live`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'ALREADY_DRAFTED' } });
  });

  it('the task view and list carry the SYB order number as syb_order_no and the PDD one as pdd_order_no, and no order_no', async () => {
    const t = await created();
    await admin.db
      .updateTable('tasks')
      .set({ syb_order_no: 'TW-0001', syb_id: 'SH-1-L1', pdd_order_no: '260807-1' })
      .where('task_id', '=', t.task_id)
      .execute();
    const numbers = { syb_order_no: 'TW-0001', pdd_order_no: '260807-1' };
    const view = await task(t.task_id);
    expect(view).toMatchObject({ syb_id: 'SH-1-L1', ...numbers });
    expect(view).not.toHaveProperty('order_no');
    for (const q of ['260807-1', 'TW-0001']) {
      const found = (await op.get(`/api/tasks?q=${q}`)).body as {
        items: Array<{ task_id: string; syb_order_no: string; pdd_order_no: string }>;
      };
      expect(found.items).toEqual([expect.objectContaining({ task_id: t.task_id, ...numbers })]);
      expect(found.items[0]).not.toHaveProperty('order_no');
    }
  });

  it('resolve takes the PDD number as pdd_order_no; none or a blank one is 400, order_no is 400 naming pdd_order_no, and nothing is written', async () => {
    const t = await created();
    const resolve = (body: object) => op.post(`/api/tasks/${t.task_id}/resolve`, body);
    for (const body of [{ outcome: 'created' }, { outcome: 'created', pdd_order_no: '   ' }]) {
      const res = await resolve(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    // the old name said either order number: refused with the one it means, whatever else is sent
    for (const body of [
      { outcome: 'created', order_no: '260807-1' },
      { outcome: 'created', pdd_order_no: '260807-1', order_no: '260807-1' },
    ]) {
      const res = await resolve(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: { code: 'FIELD_RENAMED', details: { field: 'order_no', use: 'pdd_order_no' } },
      });
      expect((res.body as { error: { message: string } }).error.message).toContain('pdd_order_no');
    }
    // a well-formed body reaches the task, whose state refuses it
    const res = await resolve({ outcome: 'created', pdd_order_no: '260807-1' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { code: 'ACTION_NOT_ALLOWED' } });
    expect(await task(t.task_id)).toMatchObject({ status: 'DRAFT', pdd_order_no: null, version: t.version });
  });
});
