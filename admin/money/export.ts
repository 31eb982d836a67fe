import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Logger } from '../../platform/logger';
import type { AdminDb } from '../db/database';
import { dayDate, EXPORT_COLUMNS, taipeiText, taipeiWallClock, type ExportKind } from './export-columns';
import type { MoneyLine } from '../../domain/money-views';
import { streamMoneyLines } from './lines';
import type { DayRange } from './range';

/**
 * `GET /api/money/export.xlsx` and `.csv` (docs/api.md "Money"): every order line of a range with
 * its money, for the books. Both are written while the lines are read (admin/money/lines.ts reads
 * them in chunks), so an export of a year holds a chunk in memory, not the year. Amounts are 元 as
 * numbers, days and times are Taipei's, and a figure that is not known is an empty cell.
 */
export const MONEY_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type MoneyExportFormat = (typeof MONEY_EXPORT_FORMATS)[number];

const CONTENT_TYPE: Record<MoneyExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/** zlib's level for the xlsx: the fastest; the sheet's XML compresses well at any */
const ZIP_LEVEL = 1;

/** Rows written between two looks at the response: room in its buffer, a client still there. */
const ROWS_PER_TURN = 200;

export interface MoneyExportFile {
  headers: Record<string, string>;
  body: Readable;
}

/**
 * The file's headers and its body, which is written as the client reads it. Once the headers are
 * sent an error can no longer become an error answer: it is logged and the body is cut off, so the
 * download fails rather than ending as a complete-looking file with lines missing.
 */
export function moneyExport(db: AdminDb, range: DayRange, format: MoneyExportFormat, log: Logger): MoneyExportFile {
  const body = new PassThrough();
  const write = format === 'xlsx' ? writeXlsx : writeCsv;
  write(streamMoneyLines(db, range), body).catch((err: unknown) => {
    log.error({ err, format, from: range.from, to: range.to }, 'money export failed after its headers were sent');
    body.destroy();
  });
  return {
    headers: {
      'Content-Type': CONTENT_TYPE[format],
      'Content-Disposition': attachment(`cmautobuy-金额-${range.from}-${range.to}.${format}`, format, range),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
    body,
  };
}

/** RFC 6266 with the RFC 5987 `filename*` for the Chinese name, and an ASCII one for old clients. */
function attachment(name: string, format: MoneyExportFormat, range: DayRange): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="cmautobuy-money-${range.from}-${range.to}.${format}"; filename*=UTF-8''${encoded}`;
}

/** What the export may wait on: a stream that emits `drain` once it has taken what it holds. */
interface Drains {
  on(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
}

/**
 * Lets the zip and the client catch up: waits while what was written is not yet taken (`behind`,
 * else the response's own buffer), and otherwise for one turn of the event loop (other requests
 * get theirs). False once the client has gone: the export stops reading.
 */
async function room(out: PassThrough, behind?: Drains): Promise<boolean> {
  if (out.destroyed) return false;
  await new Promise<void>((resolve) => {
    const target = behind ?? (out.writableNeedDrain ? out : undefined);
    if (!target) return setImmediate(resolve);
    const done = () => {
      target.off('drain', done);
      out.off('close', done);
      resolve();
    };
    target.on('drain', done);
    out.on('close', done);
  });
  return !out.destroyed;
}

/** Each kind's number format: currency, the rate to the ppm, the margin as a percentage. */
const XLSX_NUM_FMT: Record<ExportKind, string | undefined> = {
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm:ss',
  text: '@',
  integer: '0',
  twd: '"NT$"#,##0.00',
  cny: '"¥"#,##0.00',
  rate_ppm: '0.000000',
  bp: '0.00%',
};

function xlsxCell(kind: ExportKind, v: string | number | null): string | number | Date | null {
  if (v === null) return null;
  switch (kind) {
    case 'date':
      return dayDate(String(v));
    case 'datetime':
      return taipeiWallClock(String(v));
    case 'twd':
    case 'cny':
      return Number(v) / 100;
    case 'rate_ppm':
      return Number(v) / 1_000_000;
    case 'bp':
      return Number(v) / 10_000;
    default:
      return v;
  }
}

/**
 * Each column's style, one object per column: exceljs remembers the style id of a style object it
 * has seen, where a style made per cell (a column's style is copied into each new cell) costs a
 * lookup by its XML every time: about a sixth of the export's time at 100,000 lines.
 */
const XLSX_STYLES = EXPORT_COLUMNS.map((c) => (XLSX_NUM_FMT[c.kind] ? { numFmt: XLSX_NUM_FMT[c.kind] } : {}));

/**
 * The stream the sheet's XML waits in for the zip's deflate, when it holds more than its share.
 * exceljs writes a sheet into the zip without waiting for it (its own buffer never says no), and
 * the deflate takes a 64 KiB chunk per turn of the event loop: without this wait, half of a
 * 100,000-line sheet's XML piled up ahead of the zip. It is exceljs 4's own (package.json pins
 * it): a sheet's `stream` and the stream the zip reads it through; without them, no wait.
 */
function zipBacklog(ws: ExcelJS.Worksheet): Drains | undefined {
  const input = (ws as unknown as { stream?: { pipes?: Array<Drains & { _writableState?: { needDrain?: boolean } }> } })
    .stream?.pipes?.[0];
  return input?._writableState?.needDrain ? input : undefined;
}

/**
 * exceljs's streaming writer: each row is committed (written out) as it is made, strings inline
 * rather than shared (a shared-string table is held until the end), styles on for the formats.
 */
async function writeXlsx(lines: AsyncGenerator<MoneyLine>, out: PassThrough): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: ZIP_LEVEL } },
  });
  const ws = wb.addWorksheet('金额', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = EXPORT_COLUMNS.map((c) => ({ header: c.header, width: c.width }));
  const header = ws.getRow(1);
  header.font = { bold: true };
  header.commit();
  let rows = 0;
  for await (const line of lines) {
    const row = ws.addRow(EXPORT_COLUMNS.map((c) => xlsxCell(c.kind, c.value(line))));
    for (let i = 0; i < XLSX_STYLES.length; i++) row.getCell(i + 1).style = XLSX_STYLES[i]!;
    row.commit();
    if (++rows % ROWS_PER_TURN === 0 && !(await room(out, zipBacklog(ws)))) return;
  }
  ws.commit();
  await wb.commit();
}

/** `-1234` cents → `-12.34`: integer arithmetic, so the text is the stored figure exactly. */
function decimal(v: number, places: number): string {
  const unit = 10 ** places;
  const abs = Math.abs(v);
  return `${v < 0 ? '-' : ''}${Math.floor(abs / unit)}.${String(abs % unit).padStart(places, '0')}`;
}

/** A text starting with one of these is a formula to a spreadsheet (CSV injection): it gets a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvText(v: string): string {
  const safe = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Numbers as text Excel reads as numbers; days and times as Excel reads dates. */
function csvCell(kind: ExportKind, v: string | number | null): string {
  if (v === null) return '';
  switch (kind) {
    case 'date':
      return String(v);
    case 'datetime':
      return taipeiText(String(v));
    case 'twd':
    case 'cny':
      return decimal(Number(v), 2);
    case 'rate_ppm':
      return decimal(Number(v), 6);
    case 'bp':
      return `${decimal(Number(v), 2)}%`;
    case 'integer':
      return String(v);
    default:
      return csvText(String(v));
  }
}

/** RFC 4180 (CRLF line ends, quoted fields) behind a UTF-8 BOM, without which Excel reads the Chinese as ANSI. */
async function writeCsv(lines: AsyncGenerator<MoneyLine>, out: PassThrough): Promise<void> {
  let text = `\uFEFF${EXPORT_COLUMNS.map((c) => csvText(c.header)).join(',')}\r\n`;
  let rows = 0;
  for await (const line of lines) {
    text += `${EXPORT_COLUMNS.map((c) => csvCell(c.kind, c.value(line))).join(',')}\r\n`;
    if (++rows % ROWS_PER_TURN === 0) {
      out.write(text);
      text = '';
      if (!(await room(out))) return;
    }
  }
  out.end(text);
}
