import type { DeviceWorkerHandle } from '../../workers/device';
import type { SkusJson } from '../../domain/collect';
import type { PddGoodsDetailView } from '../../domain/catalog-views';
import { optionKey } from '../../domain/option-key';
import { startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import { deviceWorker, FAST_TIMING, until } from '../device/fixtures';
import {
  loginOperator,
  sharedTemporal,
  startTestAdmin,
  tempDataDir,
  type OperatorClient,
  type TestAdmin,
} from '../harness';
import { upload } from './helpers';
import { buildWorkbook } from './workbook';

/**
 * 商品 → PDD link → 采集 through everything real: the admin API starts `collect/<id>` on the
 * Temporal server, the admin worker runs the workflow and the catalog activities, a device
 * worker drives the phone simulator over ADB, and skus_json lands in the admin DB.
 */
describe('collect end to end: admin → Temporal → device worker → sim → skus_json', () => {
  const PDD = '937122477375'; // the sim's default catalog: black shares a coupon price, white/L sold out
  let admin: TestAdmin;
  let op: OperatorClient;
  let sim: PhoneSim;
  let dev: DeviceWorkerHandle;

  beforeAll(async () => {
    admin = await startTestAdmin();
    op = await loginOperator(admin);
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['sim-k1'] });
    dev = await deviceWorker({
      deviceId: 'dev-k1',
      serial: 'sim-k1',
      adb: { host: '127.0.0.1', port: sim.adbPort, timeouts: { reconnectMs: 1_500 } },
      dataDir: tempDataDir('device'),
      temporal: { address: sharedTemporal().address, namespace: admin.namespace },
      timing: FAST_TIMING,
    });
    const res = await upload(
      op,
      await buildWorkbook(
        ['商品ID', '商品名稱', '商品規格ID', '商品規格'],
        [
          { 商品ID: '8001', 商品名稱: '西裝外套', 商品規格ID: '-' },
          { 商品ID: '8001', 商品名稱: '西裝外套', 商品規格ID: '9001', 商品規格: '黑色,M【建議40-50公斤】' },
        ],
      ),
    );
    expect(res.status).toBe(200);
    expect(
      (
        await op.put('/api/shopee/products/8001/pdd-link', {
          url: `【拼多多】 https://mobile.yangkeduo.com/goods2.html?goods_id=${PDD}&share_uid=1`,
        })
      ).status,
    ).toBe(200);
  });

  afterAll(async () => {
    await dev?.stop();
    await sim?.close();
    await admin?.close();
  });

  it('collects into skus_json, records the device, and the mapping dialog offers the collected rows', async () => {
    const start = await op.post(`/api/pdd/products/${PDD}/collect`);
    expect(start.status).toBe(202);
    const { workflow_id, run_id } = start.body as { workflow_id: string; run_id: string };
    expect(workflow_id).toBe(`collect/${PDD}`);

    const done = await until(
      'collect to finish',
      async () => {
        const r = (await op.get(`/api/pdd/products/${PDD}`)).body as {
          collect_status: string;
          skus_json: SkusJson | null;
          collect_msg: string | null;
        };
        return r.collect_status === 'collected' || r.collect_status === 'failed' ? r : null;
      },
      120_000,
    );
    expect(done.collect_msg).toBeNull();
    expect(done.collect_status).toBe('collected');
    const data = done.skus_json as SkusJson;
    expect(data.goods_id).toBe(PDD);
    expect(data.skus).toHaveLength(6);
    const byValues = (a: string, b: string) =>
      data.skus.find((s) => Object.values(s.options).includes(a) && Object.values(s.options).includes(b));
    expect(byValues('黑色', 'M')?.price_cent).toBe(1288);
    expect(byValues('白色', 'L')?.available).toBe(false);

    const row = await admin.db
      .selectFrom('pdd_products')
      .selectAll()
      .where('goods_id', '=', PDD)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      collect_status: 'collected',
      collect_device_id: 'dev-k1',
      collect_run_id: run_id,
      title: data.title,
    });
    const task = await admin.db
      .selectFrom('tasks')
      .selectAll()
      .where('task_id', '=', `${workflow_id}/${run_id}`)
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({ status: 'succeeded', device_id: 'dev-k1' });
    expect(await admin.db.selectFrom('task_claims').selectAll().where('task_id', '=', task.task_id).execute()).toEqual([
      expect.objectContaining({ device_id: 'dev-k1' }),
    ]);

    const client = await admin.temporal.client();
    const desc = await until('workflow to close', async () => {
      const d = await client.workflow.getHandle(workflow_id, run_id).describe();
      return d.status.name === 'RUNNING' ? null : d;
    });
    expect(desc.status.name).toBe('COMPLETED');
    expect(desc.searchAttributes).toMatchObject({ GoodsId: [PDD], TaskStatus: [task.status] });

    expect((await op.get('/api/shopee/products/8001')).body).toMatchObject({ state: 'collected', pdd_goods_id: PDD });
    const black = byValues('黑色', 'M');
    const board = (await op.get('/api/mappings?goods_id=8001')).body as {
      pdd_skus: unknown[];
      shopee_skus: Array<{ suggestions: string[] }>;
    };
    expect(board.pdd_skus).toHaveLength(6);
    expect(board.shopee_skus[0]?.suggestions).toHaveLength(1);
    expect((await op.put('/api/mappings/9001', { pdd_options: black?.options })).status).toBe(200);

    // The goods page: the sales figure the phone read, every option with price and stock, and this run.
    const goods = (await op.get(`/api/pdd/products/${PDD}`)).body as PddGoodsDetailView;
    expect(goods.metrics).toEqual({ sales_text: '已拼10万+件' });
    expect(goods.dimensions.map((d) => d.name)).toHaveLength(2);
    expect(goods.skus).toHaveLength(6);
    expect(goods.skus.find((s) => s.option_key === optionKey(black!.options))).toMatchObject({
      price_cent: 1288,
      available: true,
      warnings: [],
    });
    expect(goods.recent_collects).toEqual([
      expect.objectContaining({ task_id: `${workflow_id}/${run_id}`, status: 'succeeded', device_id: 'dev-k1' }),
    ]);
  });
});
