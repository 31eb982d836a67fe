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

async function main(): Promise<void> {
  await benchImport(1000, 4);
  await benchImport(5000, 4);
  await benchCollect();
  console.log(`## Run of ${new Date().toISOString().slice(0, 19)}Z on ${os.cpus().length} cores, ${mib(os.totalmem())} MiB, Node ${process.version}\n`);
  console.log('| what | measured | cost / memory |\n|---|---|---|');
  for (const r of rows) console.log(r);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
