import { readFirstSheet, type SheetRow } from '../../admin/catalog/xlsx';
import { ElementSplitter } from '../../admin/catalog/xlsx-xml';
import { buildWorkbook, generatedExport } from '../catalog/workbook';
import { deflated, workbookParts, zip, type ZipPart } from './hostile-xlsx';

/**
 * The import's own xlsx reader (admin/catalog/xlsx.ts) reads what Excel, exceljs and other
 * generators write — shared and inline strings, rich text, phonetic runs, entities, namespace
 * prefixes, references left out — the same as before it replaced exceljs.
 */
async function rows(file: Buffer): Promise<SheetRow[]> {
  const out: SheetRow[] = [];
  await readFirstSheet(file, (r) => out.push(r));
  return out;
}

const part = (name: string, xml: string): ZipPart => ({ name, ...deflated(xml) });

describe('the import xlsx reader', () => {
  it('reads an exceljs-written export cell for cell', async () => {
    const gen = generatedExport();
    const read = await rows(await buildWorkbook(gen.header, gen.rows, { extraSheet: true }));
    expect(read).toHaveLength(gen.rows.length + 1);
    expect(read[0]!.values.slice(1)).toEqual(gen.header);
    gen.rows.forEach((r, i) => {
      const values = read[i + 1]!.values;
      gen.header.forEach((h, c) => {
        const want = r[h.trim()];
        const got = values[c + 1];
        // exceljs writes '' as an empty shared string; either way the cell's text is ''
        expect({ row: i + 2, h, got: got ?? '' }).toEqual({ row: i + 2, h, got: want ?? '' });
      });
    });
  });

  it('reads prefixes, rich text, phonetic runs, entities, inline strings and left-out references', async () => {
    const strings = part(
      'xl/sharedStrings.xml',
      '<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        '<x:si><x:t>商品ID</x:t></x:si>' +
        '<x:si><x:r><x:rPr><x:b/></x:rPr><x:t>西裝</x:t></x:r><x:r><x:t xml:space="preserve"> 外套 &amp; &lt;M&gt; &#x1F600;&#25991;</x:t></x:r><x:rPh sb="0" eb="1"><x:t>ふりがな</x:t></x:rPh></x:si>' +
        '<x:si><x:t/></x:si>' +
        '</x:sst>',
    );
    const sheet = part(
      'xl/worksheets/sheet1.xml',
      '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>' +
        '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="C1" t="s"><x:v>1</x:v></x:c></x:row>' +
        '<x:row r="3"/>' +
        '<x:row><x:c><x:v>21000000001</x:v></x:c><x:c t="inlineStr"><x:is><x:t>a&quot;b</x:t></x:is></x:c><x:c t="b"><x:v>1</x:v></x:c><x:c t="e"><x:v>#N/A</x:v></x:c><x:c t="str"><x:f>A1</x:f><x:v>x</x:v></x:c><x:c r="H4" t="s"><x:v>2</x:v></x:c><x:c r="I4"/></x:row>' +
        '</x:sheetData></x:worksheet>',
    );
    const read = await rows(zip([...workbookParts(), sheet, strings]));
    expect(read.map((r) => r.number)).toEqual([1, 3, 4]);
    expect(read[0]!.values[1]).toBe('商品ID');
    expect(read[0]!.values[2]).toBeUndefined();
    expect(read[0]!.values[3]).toBe('西裝 外套 & <M> 😀文');
    expect(read[1]!.values).toEqual([]);
    expect(read[2]!.values.slice(1)).toEqual([21000000001, 'a"b', true, null, 'x', undefined, undefined, '']);
  });

  it('cuts the same elements however the text is split', () => {
    const xml = `<sheetData>${Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? `<row r="${i}"/>` : `<x:row r="${i}"><c><v>${i}</v></c></x:row>`)).join('<rowBreaks/>')}</sheetData>`;
    const whole: string[] = [];
    new ElementSplitter('row', 1 << 20).push(xml, (e) => whole.push(e));
    expect(whole).toHaveLength(20);
    for (const size of [1, 2, 3, 7, 13]) {
      const pieces: string[] = [];
      const splitter = new ElementSplitter('row', 1 << 20);
      for (let i = 0; i < xml.length; i += size) splitter.push(xml.slice(i, i + size), (e) => pieces.push(e));
      expect({ size, pieces }).toEqual({ size, pieces: whole });
    }
  });

  it('finds the first sheet through its relationship, whatever the prefix, quotes and spacing', async () => {
    const parts = [
      part('[Content_Types].xml', '<Types/>'),
      part(
        'xl/workbook.xml',
        "<x:workbook xmlns:x='main' xmlns:rel='rels'><x:sheets><x:sheet name='說明' sheetId = '2' rel:id = 'rIdB' />" +
          '<x:sheet name="商品" sheetId="1" rel:id="rIdA"/></x:sheets></x:workbook>',
      ),
      part(
        'xl/_rels/workbook.xml.rels',
        "<Relationships><Relationship Target='worksheets/sheet1.xml' Id='rIdA' Type='…/worksheet'/>" +
          '<Relationship\nId="rIdB"\nType="…/worksheet"\nTarget="/xl/worksheets/sheet2.xml"/></Relationships>',
      ),
      part('xl/worksheets/sheet1.xml', '<worksheet><sheetData><row><c><v>1</v></c></row></sheetData></worksheet>'),
      part('xl/worksheets/sheet2.xml', '<worksheet><sheetData><row><c><v>2</v></c></row></sheetData></worksheet>'),
    ];
    const out: SheetRow[] = [];
    expect(await readFirstSheet(zip(parts), (r) => out.push(r))).toEqual({ sheets: 2, rows: 1 });
    expect(out[0]!.values).toEqual([undefined, 2]);
  });
});
