import fs from 'node:fs';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { defaultCatalog, startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import type { DeviceWorkerHandle } from '../../workers/device';
import { allocateNamespace } from '../namespaces';
import { sharedTemporal, tempDataDir } from '../harness';
import { collectOf } from '../collected';
import { diffCollect, onSale } from './catalog-expect';
import { deviceWorker, fakeCatalog, FAST_TIMING, startWorkflowWorker, until } from './fixtures';
import { temporalDataConverter } from '../../temporal/codec';
import type { collect } from '../../workflows/collect';

/**
 * The collect workflow end to end on the real Temporal server: device worker + real adbkit +
 * the phone simulator over TCP; only the admin's catalog activities are an in-memory fake.
 */
describe('collect on the phone simulator', () => {
  const catalog = defaultCatalog();
  const fake = fakeCatalog();
  let sim: PhoneSim;
  let client: Client;
  let wfWorker: { stop(): Promise<void> };
  let dev: DeviceWorkerHandle;
  let namespace: string;
  const control = () => `http://127.0.0.1:${sim.controlPort}`;
  const faults = (serial: string, body: unknown) =>
    fetch(`${control()}/devices/${serial}/faults`, {
      method: body === null ? 'DELETE' : 'PUT',
      headers: { 'content-type': 'application/json' },
      body: body === null ? undefined : JSON.stringify(body),
    });
  const taps = async (serial: string) =>
    (await (await fetch(`${control()}/devices/${serial}/taps`)).json()) as unknown[];

  beforeAll(async () => {
    const { address, workflowBundlePath } = sharedTemporal();
    namespace = allocateNamespace();
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['sim-c1', 'sim-c2'] });
    client = new Client({
      dataConverter: temporalDataConverter(),
      connection: await Connection.connect({ address }),
      namespace,
    });
    wfWorker = await startWorkflowWorker(address, namespace, workflowBundlePath, fake.activities);
    dev = await deviceWorker({
      deviceId: 'dev-c1',
      serial: 'sim-c1',
      adb: { host: '127.0.0.1', port: sim.adbPort, timeouts: { reconnectMs: 1_500 } },
      dataDir: tempDataDir('device'),
      temporal: { address, namespace },
      timing: FAST_TIMING,
    });
  });

  afterAll(async () => {
    await dev?.stop();
    await wfWorker?.stop();
    await client?.connection.close();
    await sim?.close();
  });

  const runCollect = (goodsId: string) =>
    client.workflow.execute<typeof collect>('collect', {
      taskQueue: 'admin',
      workflowId: `collect/${goodsId}/${Date.now()}`,
      args: [{ pddGoodsId: goodsId, goodsUrl: `https://mobile.yangkeduo.com/goods.html?goods_id=${goodsId}` }],
      workflowExecutionTimeout: '3 minutes',
    });
  const saved = (goodsId: string) => [...fake.record.saved].reverse().find((s) => s.pddGoodsId === goodsId);

  it('collects every default-catalog goods exactly as the catalog says', async () => {
    for (const goods of onSale(catalog)) {
      const outcome = await runCollect(goods.goods_id);
      expect(outcome.status).toBe('collected');
      const s = saved(goods.goods_id);
      expect(s).toBeDefined();
      expect({ goods: goods.goods_id, diff: diffCollect(goods, s!.result) }).toEqual({
        goods: goods.goods_id,
        diff: [],
      });
      // the tests' stand-in for a collect (test/collected.ts) stores exactly what the phone read
      expect(collectOf(goods, s!.result.captured_at)).toEqual(s!.result);
      expect(s!.counters).toMatchObject({
        dumps: expect.any(Number),
        taps: expect.any(Number),
        adb_round_trips: expect.any(Number),
        wall_ms: expect.any(Number),
      });
    }
    // the spec panel was opened through the bottom buy area only, never through the promo text
    const log = (await taps('sim-c1')) as {
      target: { resource_id: string } | null;
      node: { resource_id: string } | null;
    }[];
    const entries = log.filter((t) => t.target?.resource_id.endsWith('/ll_bottom_buy'));
    expect(entries.length).toBeGreaterThanOrEqual(onSale(catalog).length);
    expect(log.some((t) => t.node?.resource_id.endsWith('/tv_goods_promo'))).toBe(false);
    expect(log.some((t) => t.target?.resource_id.endsWith('/ll_sku_confirm'))).toBe(false);
  });

  it('stops at once on a delisted goods with GOODS_DELISTED and says where the artifacts are', async () => {
    const handle = await client.workflow.start<typeof collect>('collect', {
      taskQueue: 'admin',
      workflowId: `collect/600000000105/${Date.now()}`,
      args: [{ pddGoodsId: '600000000105', goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=600000000105' }],
    });
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    // non-retryable: the phone was asked exactly once
    const history = await handle.fetchHistory();
    expect(
      (history.events ?? [])
        .filter((e) => e.activityTaskStartedEventAttributes)
        .map((e) => e.activityTaskStartedEventAttributes?.attempt),
    ).not.toContain(2);
    const failed = fake.record.failed.find((f) => f.pddGoodsId === '600000000105');
    expect(failed).toMatchObject({ code: 'GOODS_DELISTED' });
    expect(failed!.artifactPath).toContain('artifacts');
    expect(fs.readdirSync(failed!.artifactPath!).sort()).toEqual([
      'error.json',
      'screen.png',
      'steps.jsonl',
      'window.xml',
    ]);
  });

  it('survives stale and late screens', async () => {
    await faults('sim-c1', { stale_dump_rate: 1, loading_dumps: 3 });
    try {
      await runCollect('937122477375');
      expect(diffCollect(catalog.goods[0]!, saved('937122477375')!.result)).toEqual([]);
    } finally {
      await faults('sim-c1', null);
    }
  });

  // The worker reads its phone's health before it takes work: on an unprofiled app version it takes
  // none (the collect waits, untouched), and takes it once the phone is back on a profiled version.
  it('takes no collect while its phone runs an unprofiled app version, with zero taps', async () => {
    await fetch(`${control()}/devices/sim-c1/reset`, { method: 'POST' });
    await faults('sim-c1', { app_version: '8.18.0' });
    const handle = await client.workflow.start<typeof collect>('collect', {
      taskQueue: 'admin',
      workflowId: `collect/937122477375/unprofiled-${Date.now()}`,
      args: [{ pddGoodsId: '937122477375', goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375' }],
      workflowExecutionTimeout: '3 minutes',
    });
    try {
      // a window longer than the worker's 5 s status check, in which the phone must not be touched
      await new Promise((r) => setTimeout(r, 8_000));
      expect(await taps('sim-c1')).toEqual([]);
      expect((await handle.describe()).status.name).toBe('RUNNING');
    } finally {
      await faults('sim-c1', null);
    }
    await handle.result();
    expect(diffCollect(catalog.goods[0]!, saved('937122477375')!.result)).toEqual([]);
  });

  it('retries a collect whose phone disconnects mid-way and succeeds once it is back', async () => {
    await fetch(`${control()}/devices/sim-c1/reset`, { method: 'POST' });
    // The phone drops once the collect is under way (its first tap), not during a health reading
    // before it. The fault is set inside the tap itself: on a zero-latency phone the whole collect
    // can end before a poller would notice the tap, and then nothing is left to disconnect.
    const phone = sim.phone('sim-c1');
    const tap = phone.tap.bind(phone);
    phone.tap = (x: number, y: number) => {
      tap(x, y);
      phone.tap = tap;
      phone.setFaults({ disconnect_after_commands: 2 });
    };
    const handle = await client.workflow.start<typeof collect>('collect', {
      taskQueue: 'admin',
      workflowId: `collect/600000000101/disconnect-${Date.now()}`,
      args: [{ pddGoodsId: '600000000101', goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=600000000101' }],
    });
    await until('the phone to drop off', async () => {
      const list = (await (await fetch(`${control()}/devices`)).json()) as { serial: string; online: boolean }[];
      return list.find((d) => d.serial === 'sim-c1')?.online === false;
    });
    await new Promise((r) => setTimeout(r, 2_000));
    await faults('sim-c1', null);
    await handle.result();
    expect(
      diffCollect(
        catalog.goods.find((g) => g.goods_id === '600000000101')!,
        saved('600000000101')!.result,
      ),
    ).toEqual([]);
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 0);
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
  });

  it('on the realistic profile, a goods with one price per colour costs a dump per colour, per row and per colour change, + 3', async () => {
    // a phone with real-world latency and a worker with its default (real-phone) settle times
    await dev.stop();
    await faults('sim-c2', { latency: 'realistic' });
    dev = await deviceWorker({
      deviceId: 'dev-c2',
      serial: 'sim-c2',
      adb: { host: '127.0.0.1', port: sim.adbPort },
      dataDir: tempDataDir('device'),
      temporal: { address: sharedTemporal().address, namespace },
    });
    try {
      const goods = catalog.goods.find((g) => g.goods_id === '600000000101')!;
      await runCollect(goods.goods_id);
      const s = saved(goods.goods_id)!;
      expect(diffCollect(goods, s.result)).toEqual([]);
      // each colour read alone, then each of its rows selected (measured); the size is cleared
      // before the next colour; the goods page, the panel and the sizes after the one reveal swipe
      const colours = goods.dimensions[0]!.values.length;
      expect(s.result.skus.every((r) => !r.price_inferred)).toBe(true);
      expect(s.counters!['dumps']).toBeLessThanOrEqual(colours + goods.skus.length + (colours - 1) + 3);
    } finally {
      await faults('sim-c2', null);
    }
  }, 180_000);
});
