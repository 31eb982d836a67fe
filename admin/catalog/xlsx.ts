import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/** A cell as exceljs hands it over; anything else is reduced to its text. */
export type CellValue = ExcelJS.CellValue;

export interface SheetRow {
  /** the row number as Excel shows it (header = 1) */
  number: number;
  /** 1-based like Excel columns; index 0 unused */
  values: CellValue[];
}

export class WorkbookUnreadable extends Error {
  override readonly name = 'WorkbookUnreadable';
}

/**
 * Bounds on the work one import may cause. The Shopee export of the whole shop is ~11k rows,
 * a title at most a few hundred characters, the unpacked workbook a few tens of MB; each
 * bound leaves room above that and keeps one upload from taking the admin's memory.
 */
export const WORKBOOK_LIMITS = {
  /** rows of the first worksheet, header included */
  maxRows: 50_000,
  /** characters of one cell's text */
  maxCellChars: 2_000,
  /** the sum of the uncompressed sizes the zip declares (shared strings included) */
  maxUnpackedBytes: 200 * 1024 * 1024,
} as const;

export type WorkbookLimit = 'rows' | 'cell' | 'unpacked';

export class WorkbookTooLarge extends Error {
  override readonly name = 'WorkbookTooLarge';
  constructor(
    readonly limit: WorkbookLimit,
    message: string,
    readonly row?: number,
  ) {
    super(message);
  }
}

/**
 * The total uncompressed size the zip's central directory declares, read before anything is
 * inflated; undefined when the directory cannot be found (exceljs then reports the file as
 * unreadable). A file that lies about its sizes still meets the row and cell bounds below.
 */
function declaredUnpackedBytes(bytes: Buffer): number | undefined {
  const EOCD = 0x06054b50;
  const CEN = 0x02014b50;
  const from = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= from; i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const entries = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== CEN) return undefined;
    const size = bytes.readUInt32LE(offset + 24);
    // 0xffffffff: the real size is in a zip64 extra field; count it as over any sane bound
    total += size === 0xffffffff ? Number.MAX_SAFE_INTEGER / 2 : size;
    offset += 46 + bytes.readUInt16LE(offset + 28) + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  return total;
}

/**
 * Streams the first worksheet of an xlsx (bytes already size-limited by the caller) and
 * returns its non-empty rows. Other worksheets are read past, not kept. Anything exceljs
 * cannot open is a WorkbookUnreadable, never a crash.
 */
export async function readFirstSheet(bytes: Buffer): Promise<{ sheets: number; rows: SheetRow[] }> {
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50)
    throw new WorkbookUnreadable('not an xlsx file (no zip signature)');
  const unpacked = declaredUnpackedBytes(bytes);
  if (unpacked !== undefined && unpacked > WORKBOOK_LIMITS.maxUnpackedBytes) {
    throw new WorkbookTooLarge(
      'unpacked',
      `the workbook unpacks to more than ${WORKBOOK_LIMITS.maxUnpackedBytes / 1024 / 1024} MB`,
    );
  }
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(bytes), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'emit',
  });
  const rows: SheetRow[] = [];
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      sheets++;
      for await (const row of sheet) {
        if (sheets !== 1) continue;
        const values = Array.isArray(row.values) ? (row.values as CellValue[]) : [];
        if (rows.length >= WORKBOOK_LIMITS.maxRows) {
          throw new WorkbookTooLarge(
            'rows',
            `the first worksheet has more than ${WORKBOOK_LIMITS.maxRows} rows`,
            row.number,
          );
        }
        for (const v of values) {
          if (cellText(v).length > WORKBOOK_LIMITS.maxCellChars) {
            throw new WorkbookTooLarge(
              'cell',
              `row ${row.number} has a cell longer than ${WORKBOOK_LIMITS.maxCellChars} characters`,
              row.number,
            );
          }
        }
        rows.push({ number: row.number, values });
      }
    }
  } catch (err) {
    if (err instanceof WorkbookTooLarge) throw err;
    throw new WorkbookUnreadable(`cannot read the workbook: ${(err as Error).message}`);
  }
  return { sheets, rows };
}

/** Text of a cell the way Excel displays plain content; '' for empty. */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value && Array.isArray(value.richText)) return value.richText.map((r) => r.text).join('');
  if ('text' in value && typeof value.text === 'string') return value.text;
  if ('result' in value) {
    const r = value.result;
    return r === undefined || r === null || typeof r === 'object' ? '' : String(r);
  }
  return '';
}

/**
 * An ID cell as an exact digit string. A numeric cell is accepted only when the number is a
 * safe integer (so `String(n)` is exactly its digits); a text cell is trimmed. Returns null
 * for a numeric cell that cannot be an exact ID (fraction, too large to be exact).
 */
export function idCellText(value: CellValue | undefined): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
  return cellText(value).trim();
}
