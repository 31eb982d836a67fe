import { StringDecoder } from 'node:string_decoder';
import { BadCell, ElementSplitter, XmlTooLarge, detached, parseRow, richText, type XmlCell } from './xlsx-xml';
import { attributes, startTags } from './xml-scan';
import { ZipEntryTooLarge, ZipUnreadable, centralDirectory, entryText, inflateEntry, type ZipEntry } from './zip';

/** A cell as the reader hands it over: text, number, boolean or empty. */
export type CellValue = XmlCell | undefined;

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
 * Bounds on the work one import may cause (docs/security.md "Imports"). The Shopee export of
 * the whole shop is ~11k rows, a title at most a few hundred characters, the unpacked workbook
 * a few tens of MB; each bound leaves room above that, and together they keep the admin's
 * memory for one upload within the budget docs/security.md states.
 */
export const WORKBOOK_LIMITS = {
  /** rows of the first worksheet, header included */
  maxRows: 200_000,
  /** characters of one cell's text */
  maxCellChars: 2_000,
  /** bytes the zip may unpack to: the sizes it declares, and what it really inflates to */
  maxUnpackedBytes: 200 * 1024 * 1024,
  /** entries of the shared-strings table */
  maxSharedStrings: 1_000_000,
  /** characters of all shared strings together */
  maxSharedStringChars: 16 * 1024 * 1024,
  /** characters of one row (or one shared string) as XML */
  maxElementChars: 4 * 1024 * 1024,
} as const;

export type WorkbookLimit = 'rows' | 'cell' | 'unpacked' | 'strings';

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

/** Small parts (workbook.xml and its relationships) are read whole, within this. */
const SMALL_PART_BYTES = 4 * 1024 * 1024;

/** A sheet's relationship: its `r:id` (whatever the prefix is called), or a plain `id`. */
function relationshipId(attrs: Map<string, string>): string | undefined {
  for (const [name, value] of attrs)
    if (name === 'id' || (name.length > 3 && name.indexOf(':') === name.length - 3 && name.endsWith(':id')))
      return value;
  return undefined;
}

/** Where the parts are: the first worksheet (the workbook's first <sheet>), the shared strings. */
async function locateParts(bytes: Buffer, byName: Map<string, ZipEntry>) {
  const worksheets = [...byName.keys()]
    .filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const book = byName.get('xl/workbook.xml');
  const relsEntry = byName.get('xl/_rels/workbook.xml.rels');
  const rels = new Map<string, { type: string; target: string }>();
  if (relsEntry) {
    const xml = await entryText(bytes, relsEntry, SMALL_PART_BYTES);
    for (const tag of startTags(xml, 'Relationship')) {
      const attrs = attributes(tag);
      const id = attrs.get('Id');
      const target = attrs.get('Target');
      const type = attrs.get('Type') ?? '';
      if (id && target) rels.set(id, { type, target: target.startsWith('/') ? target.slice(1) : `xl/${target}` });
    }
  }
  let sheets = worksheets.length;
  let first = worksheets[0];
  if (book) {
    const xml = await entryText(bytes, book, SMALL_PART_BYTES);
    const declared = startTags(xml, 'sheet');
    sheets = declared.length;
    const rid = declared[0] === undefined ? undefined : relationshipId(attributes(declared[0]));
    const target = rid === undefined ? undefined : rels.get(rid)?.target;
    if (target !== undefined && byName.has(target)) first = target;
  }
  const stringsTarget = [...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target;
  const strings = byName.get(stringsTarget ?? 'xl/sharedStrings.xml');
  return { sheets, first: first === undefined ? undefined : byName.get(first), strings };
}

/** Tracks what the zip has really inflated to, across parts. */
class Budget {
  used = 0;
  remaining() {
    return WORKBOOK_LIMITS.maxUnpackedBytes - this.used;
  }
  async *inflate(bytes: Buffer, entry: ZipEntry): AsyncGenerator<string> {
    const decoder = new StringDecoder('utf8');
    for await (const chunk of inflateEntry(bytes, entry, this.remaining())) {
      this.used += chunk.length;
      yield decoder.write(chunk);
    }
    yield decoder.end();
  }
}

async function readSharedStrings(bytes: Buffer, entry: ZipEntry | undefined, budget: Budget): Promise<string[]> {
  const strings: string[] = [];
  if (!entry) return strings;
  let chars = 0;
  const splitter = new ElementSplitter('si', WORKBOOK_LIMITS.maxElementChars);
  const add = (xml: string) => {
    const text = detached(richText(xml));
    chars += text.length;
    if (strings.length >= WORKBOOK_LIMITS.maxSharedStrings || chars > WORKBOOK_LIMITS.maxSharedStringChars)
      throw new WorkbookTooLarge(
        'strings',
        `the shared-strings table holds more than ${WORKBOOK_LIMITS.maxSharedStrings} strings or ${WORKBOOK_LIMITS.maxSharedStringChars} characters`,
      );
    strings.push(text);
  };
  for await (const text of budget.inflate(bytes, entry)) splitter.push(text, add);
  return strings;
}

/**
 * Streams the first worksheet of an xlsx (bytes already size-limited by the caller) and hands
 * each row to `onRow` as it is read; nothing of the sheet is kept here. Parts are found through
 * the zip's central directory, so the shared strings are read first wherever they sit and
 * nothing is ever spooled to disk; other worksheets are never inflated. Anything that is not a
 * readable workbook is a WorkbookUnreadable, anything past a bound a WorkbookTooLarge.
 */
export async function readFirstSheet(
  bytes: Buffer,
  onRow: (row: SheetRow) => void,
): Promise<{ sheets: number; rows: number }> {
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50)
    throw new WorkbookUnreadable('not an xlsx file (no zip signature)');
  try {
    const entries = centralDirectory(bytes);
    const declared = entries.reduce((sum, e) => sum + e.size, 0);
    if (declared > WORKBOOK_LIMITS.maxUnpackedBytes) throw new ZipEntryTooLarge('declared sizes over the bound');
    const byName = new Map(entries.map((e) => [e.name.replace(/^\//, ''), e]));
    const budget = new Budget();
    const parts = await locateParts(bytes, byName);
    if (!parts.first) return { sheets: parts.sheets, rows: 0 };
    const strings = await readSharedStrings(bytes, parts.strings, budget);
    let rows = 0;
    let previous = 0;
    const splitter = new ElementSplitter('row', WORKBOOK_LIMITS.maxElementChars);
    const each = (xml: string) => {
      const row = parseRow(xml, previous, strings);
      previous = row.number;
      if (++rows > WORKBOOK_LIMITS.maxRows)
        throw new WorkbookTooLarge(
          'rows',
          `the first worksheet has more than ${WORKBOOK_LIMITS.maxRows} rows`,
          row.number,
        );
      for (const v of row.values) {
        if (typeof v === 'string' && v.length > WORKBOOK_LIMITS.maxCellChars)
          throw new WorkbookTooLarge(
            'cell',
            `row ${row.number} has a cell longer than ${WORKBOOK_LIMITS.maxCellChars} characters`,
            row.number,
          );
      }
      onRow(row);
    };
    for await (const text of budget.inflate(bytes, parts.first)) splitter.push(text, each);
    return { sheets: parts.sheets, rows };
  } catch (err) {
    if (err instanceof WorkbookTooLarge) throw err;
    if (err instanceof ZipEntryTooLarge)
      throw new WorkbookTooLarge(
        'unpacked',
        `the workbook unpacks to more than ${WORKBOOK_LIMITS.maxUnpackedBytes / 1024 / 1024} MB, or to more than its zip headers declare`,
      );
    if (err instanceof XmlTooLarge) throw new WorkbookTooLarge('cell', `a row or shared string: ${err.message}`);
    if (err instanceof ZipUnreadable || err instanceof BadCell)
      throw new WorkbookUnreadable(`cannot read the workbook: ${err.message}`);
    throw err;
  }
}

/** Text of a cell the way Excel displays plain content; '' for empty. */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
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
