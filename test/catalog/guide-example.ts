import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildWorkbook, type ExportRow } from './workbook';

const GUIDE = path.join(__dirname, '..', '..', 'docs', 'operator-guide.md');

/**
 * The example tables of docs/operator-guide.md §1 「导入虾皮商品」, as the operator would type
 * them into a spreadsheet: the importer is tested against what the guide shows, so the two
 * cannot drift apart.
 */
export function guideExampleTables(): Array<{ header: string[]; rows: ExportRow[] }> {
  const text = readFileSync(GUIDE, 'utf8');
  const start = text.indexOf('## 1. 导入虾皮商品');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  const tables: Array<{ header: string[]; rows: ExportRow[] }> = [];
  let lines: string[][] = [];
  const flush = () => {
    const [header, , ...body] = lines;
    if (header)
      tables.push({ header, rows: body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))) });
    lines = [];
  };
  for (const line of section.split('\n')) {
    const t = line.trim();
    if (t.startsWith('|'))
      lines.push(
        t
          .slice(1, -1)
          .split('|')
          .map((c) => c.trim()),
      );
    else if (lines.length > 0) flush();
  }
  flush();
  return tables;
}

/** Each example table of the guide as an xlsx, the cells as text (as typed). */
export async function guideExampleWorkbooks(): Promise<Buffer[]> {
  return Promise.all(guideExampleTables().map((t) => buildWorkbook(t.header, t.rows)));
}
