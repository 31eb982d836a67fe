/**
 * The SpreadsheetML an import reads — shared strings and worksheet rows — parsed as it streams
 * out of the zip, one complete element at a time. Only the element being cut out is ever held
 * (bounded by `maxElementChars`), so a part's size never becomes the admin's memory.
 */

/** Any namespace prefix a generator may put on an element (`<x:row>`). */
const PREFIX = '(?:[A-Za-z_][\\w.-]*:)?';

export class XmlTooLarge extends Error {
  override readonly name = 'XmlTooLarge';
}

/**
 * Cuts complete `<tag …>…</tag>` / `<tag …/>` elements out of text that arrives in pieces.
 * Linear in the text, and an element still open keeps its pieces as they came: its end is
 * looked for only in each new piece, and it is joined once, when it is complete.
 */
export class ElementSplitter {
  /** text after the last complete element that may hold the start of the next one */
  private tail = '';
  /** pieces of an element whose start tag is complete but whose end tag has not come yet */
  private open: string[] = [];
  private openChars = 0;
  /** the last characters of the open element, however small its pieces (an end tag may span several) */
  private openTail = '';
  private readonly start: RegExp;
  private readonly end: RegExp;

  constructor(
    tag: string,
    private readonly maxElementChars: number,
  ) {
    this.start = new RegExp(`<${PREFIX}${tag}\\b`, 'g');
    this.end = new RegExp(`</${PREFIX}${tag}\\s*>`, 'g');
  }

  push(text: string, each: (element: string) => void): void {
    let buf: string;
    if (this.open.length > 0) {
      // the end tag may straddle earlier pieces and this one: look from a little before
      const carry = this.openTail;
      this.end.lastIndex = 0;
      const e = this.end.exec(carry + text);
      if (e === null) {
        this.open.push(text);
        this.openChars += text.length;
        this.openTail = (carry + text).slice(-40);
        this.checkSize(this.openChars);
        return;
      }
      const cut = this.end.lastIndex - carry.length;
      each(this.open.join('') + text.slice(0, cut));
      this.open = [];
      this.openChars = 0;
      buf = text.slice(cut);
    } else {
      buf = this.tail + text;
    }
    this.tail = '';
    let pos = 0;
    for (;;) {
      this.start.lastIndex = pos;
      const s = this.start.exec(buf);
      if (s === null) {
        // keep only enough to hold a start tag split across pieces
        this.tail = buf.slice(Math.max(pos, buf.length - 80));
        return;
      }
      const gt = buf.indexOf('>', s.index);
      if (gt < 0) {
        this.tail = buf.slice(s.index); // a start tag cut in two
        this.checkSize(this.tail.length);
        return;
      }
      if (buf.charCodeAt(gt - 1) === 47 /* / */) {
        each(buf.slice(s.index, gt + 1));
        pos = gt + 1;
        continue;
      }
      this.end.lastIndex = gt;
      const e = this.end.exec(buf);
      if (e === null) {
        this.open = [buf.slice(s.index)];
        this.openChars = this.open[0]!.length;
        this.openTail = this.open[0]!.slice(-40);
        this.checkSize(this.openChars);
        return;
      }
      each(buf.slice(s.index, this.end.lastIndex));
      pos = this.end.lastIndex;
    }
  }

  private checkSize(chars: number): void {
    if (chars > this.maxElementChars)
      throw new XmlTooLarge(`an element is longer than ${this.maxElementChars} characters`);
  }
}

const ENTITY = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

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

const RUN_TEXT = new RegExp(`<${PREFIX}t(?:\\s[^>]*)?>([\\s\\S]*?)</${PREFIX}t>`, 'g');
const PHONETIC = new RegExp(`<${PREFIX}rPh\\b[\\s\\S]*?</${PREFIX}rPh>`, 'g');

/** The text of an `<si>` or `<is>`: its `<t>` runs, phonetic guides (`<rPh>`) left out. */
export function richText(xml: string): string {
  const body = xml.includes('rPh') ? xml.replace(PHONETIC, '') : xml;
  let text = '';
  RUN_TEXT.lastIndex = 0;
  for (let m = RUN_TEXT.exec(body); m !== null; m = RUN_TEXT.exec(body)) text += m[1]!;
  return unescapeXml(text);
}

const CELL = new RegExp(`<${PREFIX}c\\b([^>]*?)(?:/>|>([\\s\\S]*?)</${PREFIX}c>)`, 'g');
const VALUE = new RegExp(`<${PREFIX}v(?:\\s[^>]*)?>([\\s\\S]*?)</${PREFIX}v>`);
const INLINE = new RegExp(`<${PREFIX}is\\b[\\s\\S]*?</${PREFIX}is>`);
const ROW_OPEN = /^<[^>]*>/;
const attr = (name: string) => new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
const ATTR_R = attr('r');
const ATTR_T = attr('t');

function attrValue(re: RegExp, attrs: string): string | undefined {
  const m = re.exec(attrs);
  return m ? (m[1] ?? m[2]) : undefined;
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
 * One `<row>` element → its number (Excel's, 1-based) and values (index = column, 1-based).
 * `previous` is the row before it, for rows and cells that leave out their reference.
 */
export function parseRow(
  xml: string,
  previous: number,
  strings: readonly string[],
): { number: number; values: XmlCell[] } {
  const open = ROW_OPEN.exec(xml)?.[0] ?? '';
  const r = Number(attrValue(ATTR_R, open.slice(4)));
  const number = Number.isSafeInteger(r) && r > 0 ? r : previous + 1;
  const values: XmlCell[] = [];
  if (open.endsWith('/>')) return { number, values };
  const body = xml.slice(open.length);
  let col = 0;
  CELL.lastIndex = 0;
  for (let m = CELL.exec(body); m !== null; m = CELL.exec(body)) {
    const attrs = m[1]!;
    const ref = attrValue(ATTR_R, attrs);
    const at = ref === undefined ? col + 1 : columnOf(ref);
    if (at === 0) throw new BadCell(`row ${number} has a cell reference "${ref ?? ''}" that is not a column`);
    col = at;
    const inner = m[2];
    if (inner === undefined) continue;
    const type = attrValue(ATTR_T, attrs) ?? 'n';
    if (type === 'inlineStr') {
      const is = INLINE.exec(inner);
      if (is) values[col] = detached(richText(is[0]));
      continue;
    }
    const v = VALUE.exec(inner)?.[1];
    if (v === undefined) continue;
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
  }
  return { number, values };
}
