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
 * Streams the first worksheet of an xlsx (bytes already size-limited by the caller) and
 * returns its non-empty rows. Other worksheets are read past, not kept. Anything exceljs
 * cannot open is a WorkbookUnreadable, never a crash.
 */
export async function readFirstSheet(bytes: Buffer): Promise<{ sheets: number; rows: SheetRow[] }> {
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) throw new WorkbookUnreadable('not an xlsx file (no zip signature)');
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
        rows.push({ number: row.number, values });
      }
    }
  } catch (err) {
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
