import { readImport } from '../../admin/catalog/import-read';
import { IMPORT_BUDGET, readImportInThread } from '../../admin/catalog/import-thread';
import { deflated, productRow, repeated, sharedStrings, workbookParts, worksheet, zip } from '../security/hostile-xlsx';
import { buildWorkbook, generatedExport } from './workbook';

/**
 * An import's workbook is read on a thread of its own, within a time and a heap budget
 * (admin/catalog/import-thread.ts, docs/security.md "Imports"): past either the thread is
 * stopped and the import refused with 422 IMPORT_TOO_COSTLY, and the admin — this process —
 * goes on as before.
 */
const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    const e = err as { kind?: string; code?: string; details?: unknown };
    return { kind: e.kind, code: e.code, details: e.details };
  }
  return 'read';
};

describe('reading an import on its own thread', () => {
  it('reads what the admin thread would, in batches however many rows there are', async () => {
    const gen = generatedExport();
    const file = await buildWorkbook(gen.header, gen.rows, { extraSheet: true });
    expect(await readImportInThread(file)).toEqual(await readImport(file));
    // more failed rows than one batch carries (4,999 duplicates of one product)
    const many = zip([...workbookParts(), worksheet(productRow(4).repeat(5000)), sharedStrings(['標題'])]);
    const parsed = await readImportInThread(many);
    expect({ products: parsed.products.size, failed: parsed.failed.length }).toEqual({ products: 1, failed: 4999 });
    expect(parsed).toEqual(await readImport(many));
  });

  it('hands back the reader’s own refusals as they were made', async () => {
    expect(await refusal(readImportInThread(Buffer.from('not a zip')))).toEqual({
      kind: 'invalid',
      code: 'INVALID_XLSX',
      details: undefined,
    });
    const sheet =
      '<worksheet><sheetData><row><c t="inlineStr"><is><t>商品ID</t></is></c></row></sheetData></worksheet>';
    const header = zip([...workbookParts(), { name: 'xl/worksheets/sheet1.xml', ...deflated(sheet) }]);
    expect(await refusal(readImportInThread(header))).toMatchObject({ kind: 'invalid', code: 'MISSING_COLUMNS' });
  });

  it('stops a read past its time budget: 422 IMPORT_TOO_COSTLY, and the next import reads', async () => {
    // 190,000 rows of empty cells: a few hundred ms of reading, far more than 50 ms
    const slow = zip([
      ...workbookParts(),
      worksheet(repeated('<row><c/><c/><c/><c/></row>', 190_000)),
      sharedStrings(),
    ]);
    const started = performance.now();
    expect(await refusal(readImportInThread(slow, { ...IMPORT_BUDGET, timeMs: 50 }))).toEqual({
      kind: 'unprocessable',
      code: 'IMPORT_TOO_COSTLY',
      details: { budget: 'time', limit: 50 },
    });
    // generous: stopped at its deadline, not read to the end
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await refusal(readImportInThread(slow))).toBe('read');
  });

  it('stops a read past its heap: 422 IMPORT_TOO_COSTLY, and this process lives on', async () => {
    // 900,000 shared strings (within the table's bounds): more than 16 MiB of heap to hold
    const heavy = zip([
      ...workbookParts(),
      worksheet(productRow(4)),
      sharedStrings(repeated('<si><t>abcdefghij</t></si>', 900_000)),
    ]);
    expect(await refusal(readImportInThread(heavy, { ...IMPORT_BUDGET, heapMb: 16 }))).toEqual({
      kind: 'unprocessable',
      code: 'IMPORT_TOO_COSTLY',
      details: { budget: 'memory', limit: 16 },
    });
    const parsed = await readImportInThread(heavy);
    expect([...parsed.products.values()].map((p) => p.title)).toEqual(['abcdefghij']);
  });
});
