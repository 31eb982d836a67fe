import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { openAdminReads, openMigratedAdminDb } from '../admin/db/database';
import { streamMoneyLines } from '../admin/money/lines';
import { dataPaths } from '../platform/data-dir';
import { stopChild } from '../platform/children';
import { MONEY_EXPORT_YEAR, seedMoneyLines } from './money-export-seed';
import { operator, startAdminProcess } from './stack-processes';
import { round, spread, type Spread } from './stats';
import type { BenchTemporal } from './temporal';

/**
 * The books' export (`GET /api/money/export.xlsx`, admin/money/export.ts) of a year of `lines`
 * order lines (bench/money-export-seed.ts), through HTTP from an admin process on its own data
 * dir: from the request to the file's last byte, the client reading as fast as loopback lets it
 * and keeping only a count. The admin's peak resident set is its VmHWM (/proc), so it is the
 * process's own peak, whatever a sample would miss. Beside it, the same lines read bare through
 * `streamMoneyLines` in this process, so the SQL's share of the time is known; and the last file
 * read back, so a fast export is a whole one.
 */
export interface MoneyExportFigures {
  lines: number;
  seedMs: number;
  runs: Array<{ ms: number; bytes: number }>;
  /** `streamMoneyLines` alone over the same range, per run */
  sqlMs: Spread;
  idleRssMib: number;
  peakRssMib: number;
  json: { lines: number; wall_ms: number; sql_ms: number; mib: number; peak_rss_mib: number; idle_rss_mib: number };
}

function procStatusMib(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** GET to the last byte, counting it; `keep` keeps the bytes too (to read the file back). */
function download(
  url: string,
  cookie: string,
  keep: boolean,
): Promise<{ status: number; ms: number; bytes: Buffer | number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      // a connection of its own: a kept-alive one idle past the admin's keep-alive timeout while the
      // bare SQL ran could be closed just as it was reused (socket hang up)
      .get(url, { headers: { cookie }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        let count = 0;
        res.on('data', (c: Buffer) => {
          count += c.length;
          if (keep) chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            bytes: keep ? Buffer.concat(chunks) : count,
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The file read back: its rows, and that the money is numbers and the day a date. */
async function readBack(bytes: Buffer, lines: number): Promise<void> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(bytes), { worksheets: 'emit', styles: 'cache' });
  let rows = 0;
  for await (const sheet of reader)
    for await (const row of sheet) {
      rows++;
      if (row.number !== 2) continue;
      if (!(row.getCell(1).value instanceof Date) || typeof row.getCell(10).value !== 'number')
        throw new Error(`export: row 2 is not a date and numbers: ${JSON.stringify(row.values)}`);
    }
  if (rows !== lines + 1) throw new Error(`export: ${rows} rows read back, expected ${lines + 1}`);
}

async function timeSql(file: string, lines: number): Promise<number> {
  const main = await openMigratedAdminDb(file);
  const reads = openAdminReads(file, main);
  try {
    const started = performance.now();
    let n = 0;
    for await (const line of streamMoneyLines(reads, MONEY_EXPORT_YEAR)) if (line) n++;
    const ms = performance.now() - started;
    if (n !== lines) throw new Error(`streamMoneyLines: ${n} lines, expected ${lines}`);
    return ms;
  } finally {
    await reads.destroy();
    await main.destroy();
  }
}

export async function benchMoneyExport(opts: {
  temporal: BenchTemporal;
  root: string;
  lines: number;
  runs: number;
  say: (l: string) => void;
}): Promise<MoneyExportFigures> {
  const dataDir = path.join(opts.root, 'money-export');
  fs.mkdirSync(dataDir, { recursive: true });
  const file = dataPaths(dataDir).adminDb;
  await (await openMigratedAdminDb(file)).destroy();
  const seedStarted = performance.now();
  seedMoneyLines(file, opts.lines);
  const seedMs = performance.now() - seedStarted;
  opts.say(
    `money export: seeded ${opts.lines} lines over ${MONEY_EXPORT_YEAR.from}..${MONEY_EXPORT_YEAR.to} in ${(seedMs / 1000).toFixed(1)} s`,
  );
  const password = 'bench-admin-password-0123';
  const admin = await startAdminProcess({
    dataDir,
    logs: path.join(dataDir, 'logs'),
    temporal: opts.temporal,
    workflowBundlePath: opts.temporal.workflowBundlePath,
    adminPassword: password,
  });
  try {
    const url = admin.readyMatch[1]!;
    const op = await operator(url, password);
    const settings = {
      'money.twd_to_cny_rate_ppm': 225_000,
      'money.platform_fee_bp': 600,
      'money.line_fee_cny_cent': 150,
    };
    const put = await op.request('PUT', '/api/settings', settings);
    if (put.status !== 200) throw new Error(`settings: ${put.status} ${JSON.stringify(put.body)}`);
    const pid = admin.process.pid!;
    const idleRssMib = procStatusMib(pid, 'VmRSS');
    const runs: MoneyExportFigures['runs'] = [];
    const sql: number[] = [];
    for (let r = 0; r < opts.runs; r++) {
      const last = r === opts.runs - 1;
      const path = `/api/money/export.xlsx?from=${MONEY_EXPORT_YEAR.from}&to=${MONEY_EXPORT_YEAR.to}`;
      const res = await download(`${url}${path}`, op.sessionCookie!, last);
      if (res.status !== 200) throw new Error(`export: ${res.status}`);
      const bytes = typeof res.bytes === 'number' ? res.bytes : res.bytes.length;
      if (typeof res.bytes !== 'number') await readBack(res.bytes, opts.lines);
      runs.push({ ms: res.ms, bytes });
      sql.push(await timeSql(file, opts.lines));
      opts.say(
        `money export: ${opts.lines} lines, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${(res.ms / 1000).toFixed(2)} s (SQL alone ${(sql.at(-1)! / 1000).toFixed(2)} s); admin RSS ${idleRssMib.toFixed(0)} MiB idle, peak ${procStatusMib(pid, 'VmHWM').toFixed(0)} MiB`,
      );
    }
    const peakRssMib = procStatusMib(pid, 'VmHWM');
    await stopChild(admin);
    fs.rmSync(dataDir, { recursive: true, force: true });
    const wall = spread(runs.map((r) => r.ms));
    const sqlMs = spread(sql);
    return {
      lines: opts.lines,
      seedMs,
      runs,
      sqlMs,
      idleRssMib,
      peakRssMib,
      json: {
        lines: opts.lines,
        wall_ms: Math.round(wall.median),
        sql_ms: Math.round(sqlMs.median),
        mib: round(runs[0]!.bytes / 2 ** 20, 1),
        peak_rss_mib: Math.round(peakRssMib),
        idle_rss_mib: Math.round(idleRssMib),
      },
    };
  } finally {
    await stopChild(admin);
  }
}
