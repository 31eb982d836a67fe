import { COLON, SLASH, attribute, findElement, findEndTag, isNameChar, startTagAt } from './xml-scan';

/**
 * The SpreadsheetML an import reads — shared strings and worksheet rows — parsed as it streams
 * out of the zip, one complete element at a time. Only the element being cut out is ever held
 * (bounded by `maxElementChars`), so a part's size never becomes the admin's memory. Scanning
 * is linear (admin/catalog/xml-scan.ts): a 2.4 KB workbook holding one row of `<c><c><c>…`
 * kept the admin busy for over 80 s while it was done with lazy regular expressions.
 */

export class XmlTooLarge extends Error {
  override readonly name = 'XmlTooLarge';
}

/** How far an end tag may straddle two pieces and still be found (`</x:row   >` is 11). */
const STRADDLE = 64;

/**
 * Cuts complete `<tag …>…</tag>` / `<tag …/>` elements out of text that arrives in pieces.
 * Linear in the text: each piece is scanned once (plus a few dozen characters carried over from
 * the piece before), and an element still open keeps its pieces as they came, joined once, when
 * it is complete.
 */
export class ElementSplitter {
  /** looking for a start tag; the start tag read, looking for its `>`; in the element's body */
  private state: 'seek' | 'start' | 'body' = 'seek';
  /** seek: the end of the last piece, which may hold the start of a start tag cut in two */
  private pending = '';
  /** start/body: the element so far, as it came */
  private open: string[] = [];
  private openChars = 0;
  /** start: the last character of the element so far (a `/` before the `>` closes it) */
  private lastChar = 0;
  /** body: the last characters of the body so far (an end tag may start in them) */
  private carry = '';

  constructor(
    private readonly tag: string,
    private readonly maxElementChars: number,
  ) {}

  push(text: string, each: (element: string) => void): void {
    let buf = text;
    if (this.state === 'seek' && this.pending !== '') {
      buf = this.pending + text;
      this.pending = '';
    }
    let pos = 0;
    /** where the open element's text begins in this piece */
    let from = 0;
    if (this.state === 'body' && this.carry !== '') {
      // an end tag cut between the last piece and this one
      const joined = this.carry + buf.slice(0, STRADDLE);
      const end = findEndTag(joined, 0, this.tag, true);
      if (end !== null && end.start < this.carry.length) {
        pos = end.end - this.carry.length;
        this.emit(buf.slice(0, pos), each);
      }
    }
    for (;;) {
      if (this.state === 'seek') {
        const start = this.findStart(buf, pos);
        if (start < 0) return;
        this.state = 'start';
        from = start;
        pos = start + 1;
      }
      if (this.state === 'start') {
        const gt = buf.indexOf('>', pos);
        if (gt < 0) {
          this.keep(buf.slice(from));
          return;
        }
        const before = gt > from ? buf.charCodeAt(gt - 1) : this.lastChar;
        if (before === SLASH) {
          pos = gt + 1;
          this.emit(buf.slice(from, pos), each);
          continue;
        }
        this.state = 'body';
        this.carry = '';
        pos = gt + 1;
      }
      // body
      const end = findEndTag(buf, pos, this.tag, true);
      if (end === null) {
        const body = buf.slice(pos);
        this.carry = body.length >= STRADDLE ? body.slice(-STRADDLE) : (this.carry + body).slice(-STRADDLE);
        this.keep(buf.slice(from));
        return;
      }
      pos = end.end;
      this.emit(buf.slice(from, pos), each);
      from = pos;
    }
  }

  /** The next start tag at or after `pos`, or -1 (keeping what may be the beginning of one). */
  private findStart(buf: string, pos: number): number {
    for (let lt = buf.indexOf('<', pos); lt >= 0; lt = buf.indexOf('<', lt + 1)) {
      const name = startTagAt(buf, lt, this.tag);
      // a name that runs to the end of the piece may go on in the next one
      if (name === buf.length || (name < 0 && this.runsOut(buf, lt))) break;
      if (name >= 0) return lt;
    }
    // keep enough to hold a start tag cut in two
    this.pending = buf.slice(Math.max(pos, buf.length - 80));
    return -1;
  }

  /** Whether the name after the `<` at `lt` reaches the end of the piece (undecided until the next). */
  private runsOut(buf: string, lt: number): boolean {
    let j = lt + 1;
    while (j < buf.length && (isNameChar(buf.charCodeAt(j)) || buf.charCodeAt(j) === COLON)) j++;
    return j === buf.length;
  }

  private keep(piece: string): void {
    this.open.push(piece);
    this.openChars += piece.length;
    if (piece.length > 0) this.lastChar = piece.charCodeAt(piece.length - 1);
    this.checkSize(this.openChars);
  }

  private emit(last: string, each: (element: string) => void): void {
    const chars = this.openChars + last.length;
    const element = this.open.length === 0 ? last : this.open.join('') + last;
    this.state = 'seek';
    this.open = [];
    this.openChars = 0;
    this.lastChar = 0;
    this.carry = '';
    this.checkSize(chars);
    each(element);
  }

  private checkSize(chars: number): void {
    if (chars > this.maxElementChars)
      throw new XmlTooLarge(`an element is longer than ${this.maxElementChars} characters`);
  }
}

const ENTITY = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Entities and character references (the pattern's every try reads at most 11 characters). */
function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (all, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED[name]!;
    const cp = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

/**
 * A copy that does not share memory with the chunk it was cut from: V8 keeps a substring as a
 * view of its parent, and a table of views would keep every inflated chunk alive.
 */
export function detached(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** The text of an `<si>` or `<is>`: its `<t>` runs, phonetic guides (`<rPh>`) left out. */
export function richText(xml: string): string {
  let body = xml;
  if (xml.includes('rPh')) {
    const kept: string[] = [];
    let at = 0;
    for (let p = findElement(xml, 0, 'rPh', 'open'); p !== null; p = findElement(xml, at, 'rPh', 'open')) {
      kept.push(xml.slice(at, p.start));
      at = p.end;
    }
    kept.push(xml.slice(at));
    body = kept.join('');
  }
  let text = '';
  for (let t = findElement(body, 0, 't', 'tag'); t !== null; t = findElement(body, t.end, 't', 'tag'))
    text += body.slice(t.inner, t.innerEnd);
  return unescapeXml(text);
}

/** Excel column letters → 1-based index; 0 when the reference has none or is beyond XFD. */
function columnOf(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length && i < 4; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return col <= 16384 ? col : 0;
}

export type XmlCell = string | number | boolean | null;

export class BadCell extends Error {
  override readonly name = 'BadCell';
}

/**
 * The cells of a row's body, in order: each `<c …/>` or `<c …>…</c>` (any prefix), its
 * attribute text and, unless it closed itself, its content. A `<c>` with no `</c>` after it is
 * passed over, as is every later one that is not `<c …/>`: there is no `</c>` for them either.
 */
function eachCell(body: string, cell: (attrs: string, inner: string | undefined) => void): void {
  let noEnd = false;
  let gt = -1;
  for (let lt = body.indexOf('<'); lt >= 0; lt = body.indexOf('<', lt + 1)) {
    const after = startTagAt(body, lt, 'c');
    if (after < 0) continue;
    // the first `>` after this tag is the one found for the tag before, while that lies ahead
    if (gt < after) gt = body.indexOf('>', after);
    if (gt < 0) return;
    if (gt > after && body.charCodeAt(gt - 1) === SLASH) {
      cell(body.slice(after, gt - 1), undefined);
      lt = gt;
      continue;
    }
    if (noEnd) continue;
    const end = findEndTag(body, gt + 1, 'c');
    if (end === null) {
      noEnd = true;
      continue;
    }
    cell(body.slice(after, gt), body.slice(gt + 1, end.start));
    lt = end.end - 1;
  }
}

/**
 * One `<row>` element → its number (Excel's, 1-based) and values (index = column, 1-based).
 * `previous` is the row before it, for rows and cells that leave out their reference.
 */
export function parseRow(
  xml: string,
  previous: number,
  strings: readonly string[],
): { number: number; values: XmlCell[] } {
  const gt = xml.startsWith('<') ? xml.indexOf('>') : -1;
  const open = gt < 0 ? '' : xml.slice(0, gt + 1);
  const r = Number(attribute(open.slice(4), 'r'));
  const number = Number.isSafeInteger(r) && r > 0 ? r : previous + 1;
  const values: XmlCell[] = [];
  if (open.endsWith('/>')) return { number, values };
  let col = 0;
  eachCell(xml.slice(open.length), (attrs, inner) => {
    const ref = attribute(attrs, 'r');
    const at = ref === undefined ? col + 1 : columnOf(ref);
    if (at === 0) throw new BadCell(`row ${number} has a cell reference "${ref ?? ''}" that is not a column`);
    col = at;
    if (inner === undefined) return;
    const type = attribute(attrs, 't') ?? 'n';
    if (type === 'inlineStr') {
      const is = findElement(inner, 0, 'is', 'open');
      if (is) values[col] = detached(richText(inner.slice(is.start, is.end)));
      return;
    }
    const found = findElement(inner, 0, 'v', 'tag');
    if (found === null) return;
    const v = inner.slice(found.inner, found.innerEnd);
    switch (type) {
      case 's': {
        const s = strings[Number(v)];
        if (s === undefined) throw new BadCell(`row ${number} refers to shared string ${v}, which does not exist`);
        values[col] = s;
        break;
      }
      case 'b':
        values[col] = v.trim() === '1';
        break;
      case 'e':
        values[col] = null;
        break;
      case 'n': {
        const n = Number(v);
        values[col] = v.trim() !== '' && Number.isFinite(n) ? n : detached(unescapeXml(v));
        break;
      }
      default: // str (a formula's text), d (an ISO date)
        values[col] = detached(unescapeXml(v));
    }
  });
  return { number, values };
}
