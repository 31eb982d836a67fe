import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { readImport, writeImport } from '../admin/catalog/import';
import { openMigratedAdminDb, writeTransaction } from '../admin/db/database';
import { AdbDevice } from '../device-worker/adb/adb-device';
import { CounterClock } from '../device-worker/counters';
import { collectGoods } from '../device-worker/pdd/collect';
import { profileForVersion } from '../device-worker/pdd/profile';
import { PddSession } from '../device-worker/pdd/session';
import { StepLog } from '../device-worker/step-log';
import { defaultCatalog, startPhoneSim } from '../sim/phone';
import { TapGuard } from '../device-worker/pdd/purchase/guard';
import { prepareFinalPanel } from '../device-worker/pdd/purchase/prepare';
import { PURCHASE_8_17_0 } from '../device-worker/pdd/purchase/profile';
import { PurchaseSession } from '../device-worker/pdd/purchase/purchase-session';
import type { FinalPanelReading } from '../domain/contracts/device-activities';

/**
 * `npm run bench`: what the product spends, measured — never asserted in tests. Results go to
 * stdout as Markdown rows; docs/PERFORMANCE.md keeps the latest run with its date and machine.
 */
const rows: string[] = [];
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function shopeeWorkbook(products: number, skusPer: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('商品');
  ws.addRow(['商品ID', '商品名稱', '商品規格ID', '商品規格', '主商品貨號', '商品當前狀態', '商品選項貨號']);
  for (let p = 0; p < products; p++) {
    const goodsId = String(30000000000 + p);
    ws.addRow([goodsId, `商品 ${p}`, '-', '', `M-${p}`, '上架中', '']);
    for (let s = 0; s < skusPer; s++) ws.addRow([goodsId, `商品 ${p}`, String(90000000000 + p * 100 + s), `黑色${s},M【建議40-50公斤】`, `M-${p}`, '上架中', `S-${p}-${s}`]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function benchImport(products: number, skusPer: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  const db = await openMigratedAdminDb(path.join(dir, 'admin.db'));
  const bytes = await shopeeWorkbook(products, skusPer);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const parsed = await readImport(bytes);
  const parsedAt = performance.now();
  const result = await writeTransaction(db, (trx) => writeImport(trx, parsed));
  const done = performance.now();
  const rss = process.memoryUsage().rss;
  const total = products * (skusPer + 1);
  rows.push(
    `| Shopee import, ${total} rows (${(bytes.length / 1024).toFixed(0)} KiB xlsx) | read ${(parsedAt - started).toFixed(0)} ms, write ${(done - parsedAt).toFixed(0)} ms; ` +
      `${Math.round(total / ((done - started) / 1000))} rows/s; ${result.products} products, ${result.skus} SKUs | RSS ${mib(rss)} MiB (+${mib(rss - rssBefore)}) |`,
  );
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

async function benchCollect(): Promise<void> {
  const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['bench-phone'], latency: 'zero' });
  try {
    for (const goods of defaultCatalog().goods.filter((g) => g.status === 'on_sale')) {
      const clock = new CounterClock();
      const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: 'bench-phone' }, {}, () => clock.roundTrip());
      const profile = profileForVersion(await adb.versionName('com.xunmeng.pinduoduo'));
      const started = performance.now();
      const result = await collectGoods(new PddSession(adb, profile, clock, new StepLog()), goods.goods_id);
      const ms = performance.now() - started;
      const c = clock.snapshot();
      rows.push(
        `| collect ${goods.goods_id} (${goods.dimensions.length} dims, ${result.skus.length} SKUs, ${result.price_granularity}) | ` +
          `${c.dumps} dumps, ${c.taps} taps, ${c.adb_round_trips} ADB round trips; ${ms.toFixed(0)} ms on the zero-latency sim | ` +
          `≈ ${(c.dumps * 2.0 + c.taps * 0.15).toFixed(0)} s on a real phone (2 s/dump, 0.15 s/tap) |`,
      );
    }
  } finally {
    await sim.close();
  }
}

/** The phone's part of a purchase up to the final panel (three gates), read-only: what it costs. */
async function benchPrepare(): Promise<void> {
  const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['bench-buyer'], latency: 'zero' });
  const cases = [
    { goodsId: '937122477375', options: { 颜色分类: '黑色', 尺码: 'M' }, quantity: 1 },
    { goodsId: '937122477375', options: { 颜色分类: '黑色', 尺码: 'M' }, quantity: 2 },
    { goodsId: '600000000101', options: { 颜色: '红', 尺码: 'S' }, quantity: 3 },
    { goodsId: '737116531267', options: Object.fromEntries(defaultCatalog().goods.find((g) => g.goods_id === '737116531267')!.dimensions.map((d) => [d.name, d.values[0]!])), quantity: 1 },
  ];
  try {
    let n = 0;
    for (const c of cases) {
      sim.phone('bench-buyer').reset();
      const authorizationId = `bench-${++n}`;
      const clock = new CounterClock();
      const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: 'bench-buyer' }, {}, () => clock.roundTrip());
      const profile = profileForVersion(await adb.versionName('com.xunmeng.pinduoduo'));
      const guard = new TapGuard({ authorizationId, irreversible: () => false, pkg: profile.pkg, submitLabel: '提交订单', readOnlyUrl: PURCHASE_8_17_0.pendingOrdersUrl });
      const session = new PurchaseSession(guard.wrap(adb), profile, clock, new StepLog());
      session.setPurchaseProfile(PURCHASE_8_17_0);
      const reading: Partial<FinalPanelReading> = {};
      const started = performance.now();
      const target = { taskId: 'bench', attemptId: 'bench', authorizationId, goodsId: c.goodsId, goodsUrl: `https://mobile.yangkeduo.com/goods.html?goods_id=${c.goodsId}`, options: c.options, quantity: c.quantity, capCent: 1_000_000, mode: 'dry_run' as const };
      const result = await prepareFinalPanel(session, PURCHASE_8_17_0, target, reading, { evidence: async () => {} });
      const ms = performance.now() - started;
      const k = clock.snapshot();
      rows.push(
        `| prepare ${c.goodsId} × ${c.quantity} (${Object.keys(c.options).length} dims) to the final panel, gates ${result.gate1UnitPriceCent}/${result.gate2PanelTotalCent}/${result.gate3SubmitAmountCent} | ` +
          `${k.dumps} dumps, ${k.taps} taps, ${k.adb_round_trips} ADB round trips; ${ms.toFixed(0)} ms on the zero-latency sim | ≈ ${(k.dumps * 2.0 + k.taps * 0.15).toFixed(0)} s on a real phone |`,
      );
    }
  } finally {
    await sim.close();
  }
}

async function main(): Promise<void> {
  await benchImport(1000, 4);
  await benchImport(5000, 4);
  await benchCollect();
  await benchPrepare();
  console.log(`## Run of ${new Date().toISOString().slice(0, 19)}Z on ${os.cpus().length} cores, ${mib(os.totalmem())} MiB, Node ${process.version}\n`);
  console.log('| what | measured | cost / memory |\n|---|---|---|');
  for (const r of rows) console.log(r);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
