import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { stopChild } from '../platform/children';
import type { ExportRow } from '../test/catalog/workbook';
import { xlsxForm } from '../test/catalog/helpers';
import { operator, startAdminProcess } from './stack-processes';
import type { BenchTemporal } from './temporal';

/**
 * The Shopee import through `POST /api/shopee/imports` on an admin process, beside the floor:
 * a bare exceljs streaming read of the same bytes (the same reader options the import uses,
 * every row visited, nothing kept). The export has 40 columns — the seven the import reads and
 * 33 it ignores, as a real export carries — and both 商品規格 formats (`色,尺碼【建議…】` and
 * `色,尺碼 建議…`). Each run imports new goods ids, so every run is a first import.
 */
const REQUIRED = ['商品ID', '商品名稱', '商品規格ID', '商品規格', '主商品貨號', '商品當前狀態', '商品選項貨號'];
const OTHER = Array.from(
  { length: 33 },
  (_, i) => ['價格', '庫存', '商品描述', '重量', '長度', '寬度', '高度', '運費'][i] ?? `欄位${i + 1}`,
);

/**
 * Written with exceljs's streaming writer (shared strings, as Excel and Shopee write them): the
 * in-memory writer needs minutes for 100,000 rows on a busy machine.
 */
export async function shopeeExport(rows: number, run: number): Promise<Buffer> {
  const header = [...REQUIRED, ...OTHER];
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => stream.on('end', resolve));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true, useStyles: false });
  const ws = wb.addWorksheet('商品');
  ws.addRow(header).commit();
  for (const r of exportRows(rows, run)) ws.addRow(header.map((h) => r[h] ?? null)).commit();
  ws.commit();
  await wb.commit();
  await done;
  return Buffer.concat(chunks);
}

function* exportRows(rows: number, run: number): Generator<ExportRow> {
  const filler = Object.fromEntries(OTHER.map((h, i) => [h, i % 3 === 0 ? 100 + i : `說明 ${i}`]));
  let emitted = 0;
  const data = {
    push(row: ExportRow) {
      emitted++;
      return row;
    },
    get length() {
      return emitted;
    },
  };
  for (let p = 0; data.length < rows; p++) {
    const goodsId = String(31000000000 + run * 1_000_000 + p);
    yield data.push({
      ...filler,
      商品ID: goodsId,
      商品名稱: `西裝外套 ${p}`,
      商品規格ID: '-',
      主商品貨號: `M-${p}`,
      商品當前狀態: '上架中',
    });
    for (let s = 0; s < 4 && data.length < rows; s++) {
      const spec = s % 2 === 0 ? `黑色${s},M【建議40-50公斤】` : `卡其色拼黑色${s},L 建議50-57.5kg`;
      yield data.push({
        ...filler,
        商品ID: goodsId,
        商品名稱: `西裝外套 ${p}`,
        商品規格ID: String(91000000000 + run * 10_000_000 + p * 10 + s),
        商品規格: spec,
        主商品貨號: `M-${p}`,
        商品選項貨號: `S-${p}-${s}`,
      });
    }
  }
}

/** The floor: exceljs's streaming reader over the bytes, as admin/catalog/xlsx.ts opens them. */
async function bareRead(bytes: Buffer): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(bytes), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'emit',
  });
  let rows = 0;
  for await (const sheet of reader) for await (const row of sheet) if (row.number > 0) rows++;
  return rows;
}

interface ImportRun {
  apiMs: number;
  bareMs: number;
  ratio: number;
}

export interface ImportFigures {
  rows: number;
  columns: number;
  kib: number;
  runs: ImportRun[];
  /** the admin process's peak resident set (VmHWM) over all runs, and its resident set before the first */
  peakRssMib: number;
  idleRssMib: number;
}

function procStatusMib(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export async function benchImport(opts: {
  temporal: BenchTemporal;
  root: string;
  rows: number;
  runs: number;
  say: (l: string) => void;
}): Promise<ImportFigures> {
  const dataDir = path.join(opts.root, 'import');
  fs.mkdirSync(dataDir, { recursive: true });
  const password = 'bench-admin-password-0123';
  const admin = await startAdminProcess({
    dataDir,
    logs: path.join(dataDir, 'logs'),
    temporal: opts.temporal,
    workflowBundlePath: opts.temporal.workflowBundlePath,
    adminPassword: password,
  });
  const runs: ImportRun[] = [];
  let kib = 0;
  try {
    const op = await operator(admin.readyMatch[1]!, password);
    const pid = admin.process.pid!;
    const idleRssMib = procStatusMib(pid, 'VmRSS');
    for (let r = 0; r < opts.runs; r++) {
      const bytes = await shopeeExport(opts.rows, r);
      kib = bytes.length / 1024;
      const bareStarted = performance.now();
      const read = await bareRead(bytes);
      const bareMs = performance.now() - bareStarted;
      if (read !== opts.rows + 1) throw new Error(`the bare read saw ${read} rows, expected ${opts.rows + 1}`);
      const started = performance.now();
      const res = await op.post('/api/shopee/imports', xlsxForm(bytes));
      const apiMs = performance.now() - started;
      if (res.status !== 200) throw new Error(`import: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      const body = res.body as { products: number; skus: number; failed_rows: unknown[] };
      if (body.failed_rows.length > 0 || body.products + body.skus !== opts.rows)
        throw new Error(
          `import: ${body.products} products + ${body.skus} SKUs, ${body.failed_rows.length} failed rows; expected ${opts.rows} rows imported`,
        );
      runs.push({ apiMs, bareMs, ratio: apiMs / bareMs });
      opts.say(
        `import: ${opts.rows} rows, API ${apiMs.toFixed(0)} ms, bare exceljs ${bareMs.toFixed(0)} ms, ratio ${(apiMs / bareMs).toFixed(2)}; admin RSS ${idleRssMib.toFixed(0)} MiB idle, peak ${procStatusMib(pid, 'VmHWM').toFixed(0)} MiB`,
      );
    }
    const figures = {
      rows: opts.rows,
      columns: REQUIRED.length + OTHER.length,
      kib,
      runs,
      peakRssMib: procStatusMib(pid, 'VmHWM'),
      idleRssMib,
    };
    await stopChild(admin);
    fs.rmSync(dataDir, { recursive: true, force: true });
    return figures;
  } finally {
    await stopChild(admin);
  }
}
