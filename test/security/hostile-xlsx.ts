import zlib from 'node:zlib';

/**
 * Hostile workbooks written by hand, zip entry by zip entry, so a test can make a part lie about
 * its size, unpack to gigabytes from a few MB, or sit before the shared strings — and build it
 * in milliseconds. A bomb is one deflate segment (ended with a full flush, so it refers to
 * nothing before it) repeated: N copies inflate to N times the segment's text.
 */
export interface ZipPart {
  name: string;
  /** raw deflate data; from `deflated(text)` or `repeated(unit, times)` */
  data: Buffer;
  /** what the inflated part really is, in bytes */
  size: number;
  /** what the headers declare instead (a lie), default the real size */
  declared?: number;
}

export function deflated(text: string): Pick<ZipPart, 'data' | 'size'> {
  const raw = Buffer.from(text, 'utf8');
  return { data: zlib.deflateRawSync(raw), size: raw.length };
}

/** `unit` repeated `times` times, compressed to about times × (unit's segment) bytes. */
export function repeated(unit: string, times: number, perSegment = 1 << 20): Pick<ZipPart, 'data' | 'size'> {
  const copies = Math.max(1, Math.floor(perSegment / Buffer.byteLength(unit)));
  const segmentText = Buffer.from(unit.repeat(copies), 'utf8');
  const segment = zlib.deflateRawSync(segmentText, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const segments = Math.ceil(times / copies);
  const last = zlib.deflateRawSync(Buffer.alloc(0)); // the final (empty) block
  return {
    data: Buffer.concat([...Array.from({ length: segments }, () => segment), last]),
    size: segments * segmentText.length,
  };
}

export function zip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const size = p.declared ?? p.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0, 14); // no CRC: the reader never needs it to refuse
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(Math.min(size, 0xffffffff), 22);
    local.writeUInt16LE(name.length, 26);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE(20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(0x0800, 8);
    cen.writeUInt16LE(8, 10);
    cen.writeUInt32LE(p.data.length, 20);
    cen.writeUInt32LE(Math.min(size, 0xffffffff), 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE(offset, 42);
    locals.push(local, name, p.data);
    central.push(cen, name);
    offset += 30 + name.length + p.data.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const HEADER = ['商品ID', '商品名稱', '商品規格ID', '商品規格'];

const escapeXml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A shared-strings part: the import's header strings first (indexes 0-3), then `extra`. */
export function sharedStrings(extra: Pick<ZipPart, 'data' | 'size'> | string[] = []): ZipPart {
  const head = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${HEADER.map((h) => `<si><t>${h}</t></si>`).join('')}`;
  if (Array.isArray(extra))
    return {
      name: 'xl/sharedStrings.xml',
      ...deflated(`${head}${extra.map((s) => `<si><t>${escapeXml(s)}</t></si>`).join('')}</sst>`),
    };
  // a long body between a deflated head and tail: three deflate streams cannot be joined, so
  // the head and tail become full-flush segments of their own
  const seg = (text: string) =>
    zlib.deflateRawSync(Buffer.from(text, 'utf8'), { finishFlush: zlib.constants.Z_FULL_FLUSH });
  const tail = '</sst>';
  const bodyData = extra.data.subarray(0, extra.data.length - 2); // drop the final empty block
  return {
    name: 'xl/sharedStrings.xml',
    data: Buffer.concat([seg(head), bodyData, zlib.deflateRawSync(Buffer.from(tail))]),
    size: Buffer.byteLength(head) + extra.size + tail.length,
  };
}

/** A first worksheet: the header row (shared strings 0-3), then the given `<row>` XML. */
export function worksheet(rows: Pick<ZipPart, 'data' | 'size'> | string = ''): ZipPart {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    `<row r="1">${HEADER.map((_, i) => `<c r="${'ABCD'[i]}1" t="s"><v>${i}</v></c>`).join('')}</row>`;
  const tail = '</sheetData></worksheet>';
  if (typeof rows === 'string') return { name: 'xl/worksheets/sheet1.xml', ...deflated(head + rows + tail) };
  const seg = (text: string) =>
    zlib.deflateRawSync(Buffer.from(text, 'utf8'), { finishFlush: zlib.constants.Z_FULL_FLUSH });
  return {
    name: 'xl/worksheets/sheet1.xml',
    data: Buffer.concat([
      seg(head),
      rows.data.subarray(0, rows.data.length - 2),
      zlib.deflateRawSync(Buffer.from(tail)),
    ]),
    size: Buffer.byteLength(head) + rows.size + tail.length,
  };
}

/** The parts every workbook has besides its sheet and strings. */
export function workbookParts(): ZipPart[] {
  return [
    {
      name: '[Content_Types].xml',
      ...deflated(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"></Types>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      ...deflated(
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="商品" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      ...deflated(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
      ),
    },
  ];
}

/** A product summary row (goods id, title as shared string `titleIndex`, 商品規格ID "-"). */
export const productRow = (titleIndex: number) =>
  `<row><c t="n"><v>21000000001</v></c><c t="s"><v>${titleIndex}</v></c><c t="inlineStr"><is><t>-</t></is></c></row>`;

/** `text` as a body for `sharedStrings()` / `worksheet()`: a full-flush segment, then the final block. */
function segment(text: string): Pick<ZipPart, 'data' | 'size'> {
  const raw = Buffer.from(text, 'utf8');
  const data = zlib.deflateRawSync(raw, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  return { data: Buffer.concat([data, zlib.deflateRawSync(Buffer.alloc(0))]), size: raw.length };
}

/** `unit` repeated to fill about `chars` characters (at least once). */
const fill = (unit: string, chars: number) => unit.repeat(Math.max(1, Math.floor(chars / unit.length)));

/** The parts every workbook has, with `extra` start tags left open at the end of the relationships and the sheet list. */
function workbookPartsWith(extra: { rels?: string; sheets?: string }): ZipPart[] {
  return workbookParts().map((p) => {
    if (p.name === 'xl/_rels/workbook.xml.rels' && extra.rels !== undefined)
      return {
        name: p.name,
        ...deflated(
          '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' +
            extra.rels,
        ),
      };
    if (p.name === 'xl/workbook.xml' && extra.sheets !== undefined)
      return {
        name: p.name,
        ...deflated(
          '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="商品" sheetId="1" r:id="rId1"/>' +
            extra.sheets,
        ),
      };
    return p;
  });
}

interface WorkCase {
  family: string;
  name: string;
  file: Buffer;
  /** what the import answers: 200 (nothing of it stored) or a refusal */
  status: number;
  code?: string;
}

/**
 * Workbooks built to make the reader work, not to be large: each is a few KB on the wire and
 * within every size bound, one element (a row, a shared string, a small part) filled to about
 * `chars` characters — the element bound, 4 Mi, by default — with start tags that never close,
 * tags nested thousands deep, attribute lists of megabytes or a million empty cells. A reader
 * that scans such text with backtracking patterns re-reads the element once per start tag:
 * minutes to hours of one thread for a single upload.
 */
export function workWorkbooks(chars = 4 * 1024 * 1024 - 200): WorkCase[] {
  const book = (sheet: ZipPart, strings: ZipPart = sharedStrings([]), parts = workbookParts()) =>
    zip([...parts, sheet, strings]);
  const row = (body: string) => worksheet(`<row r="2">${body}</row>`);
  const nested = (open: string, close: string) => {
    const times = Math.floor(chars / (open.length + close.length));
    return open.repeat(times) + close.repeat(times);
  };
  return [
    {
      family: 'unclosed tags',
      name: 'the probe’s 2.4 KB workbook: one row of 320,000 <c> that never close',
      file: book(row('<c>'.repeat(320_000))),
      status: 200,
    },
    {
      family: 'unclosed tags',
      name: 'a row of <c> to the element bound',
      file: book(row(fill('<c>', chars))),
      status: 200,
    },
    { family: 'unclosed tags', name: 'a row of <c  with no >', file: book(row(fill('<c ', chars))), status: 200 },
    { family: 'unclosed tags', name: 'a cell of <v>', file: book(row(`<c>${fill('<v>', chars)}</c>`)), status: 200 },
    {
      family: 'unclosed tags',
      name: 'a cell of <v  with no >',
      file: book(row(`<c>${fill('<v ', chars)}</c>`)),
      status: 200,
    },
    {
      family: 'unclosed tags',
      name: 'an inline string of <t>',
      file: book(row(`<c t="inlineStr"><is>${fill('<t>', chars)}</is></c>`)),
      status: 200,
    },
    {
      family: 'unclosed tags',
      name: 'a cell of <is>',
      file: book(row(`<c t="inlineStr">${fill('<is>', chars)}</c>`)),
      status: 200,
    },
    {
      family: 'unclosed tags',
      name: 'rows that never close',
      file: book(worksheet(fill('<row>', chars * 2))),
      status: 400,
      code: 'IMPORT_CELL_TOO_LONG',
    },
    {
      family: 'unclosed tags',
      name: 'relationships and sheets left open',
      file: book(
        worksheet(),
        sharedStrings([]),
        workbookPartsWith({ rels: fill('<Relationship ', chars - 2000), sheets: fill('<sheet ', chars - 2000) }),
      ),
      status: 200,
    },
    {
      family: 'deeply nested tags',
      name: 'cells nested in inline strings, a million deep',
      file: book(row(nested('<c t="inlineStr"><is>', '</is></c>'))),
      status: 200,
    },
    {
      family: 'deeply nested tags',
      name: 'a row of rows',
      file: book(worksheet(nested('<row>', '</row>'))),
      status: 200,
    },
    {
      family: 'deeply nested tags',
      name: 'a shared string of runs in runs',
      file: book(worksheet(), sharedStrings(segment(`<si>${nested('<r><t>', '</t></r>')}</si>`))),
      status: 200,
    },
    {
      family: 'huge attribute lists',
      name: 'a row start tag of megabytes',
      file: book(worksheet(`<row r="2" ${fill('a="1" ', chars)}><c r="A2"/></row>`)),
      status: 200,
    },
    {
      family: 'huge attribute lists',
      name: 'a cell of references that never match',
      file: book(row(`<c ${fill(' r=x', chars)}/>`)),
      status: 200,
    },
    {
      family: 'huge attribute lists',
      name: 'a cell of a million quoted attributes',
      file: book(row(`<c t="s" r="A2"${fill(' r="', chars / 2)}${fill(" t='", chars / 2)}><v>0</v></c>`)),
      status: 200,
    },
    { family: 'many tiny cells', name: 'a row of a million <c/>', file: book(row(fill('<c/>', chars))), status: 200 },
    {
      family: 'many tiny cells',
      name: 'rows of empty cells to the row bound',
      file: book(worksheet(`${fill('<row><c/><c/><c/><c/></row>', 190_000 * 27)}`)),
      status: 200,
    },
    {
      family: 'pathological shared strings',
      name: '<si><t><t><t>…',
      file: book(worksheet(), sharedStrings(segment(`<si><t>${fill('<t>', chars)}</si>`))),
      status: 200,
    },
    {
      family: 'pathological shared strings',
      name: '<rPh> that never closes',
      file: book(worksheet(), sharedStrings(segment(`<si>${fill('<rPh>', chars)}<t>a</t></si>`))),
      status: 200,
    },
    {
      family: 'pathological shared strings',
      name: '<rPh><t> pairs, none closed',
      file: book(worksheet(), sharedStrings(segment(`<si>${fill('<rPh><t>', chars)}</si>`))),
      status: 200,
    },
  ];
}
