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
 * Linear in the text: an element not yet closed is searched for its end only in what is new.
 */
export class ElementSplitter {
  private pending = '';
  /** how far into `pending` the end of its (open) element has been looked for */
  private searched = 0;
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
    const pending = this.pending + text;
    let pos = 0;
    let keep = -1;
    for (;;) {
      this.start.lastIndex = pos;
      const s = this.start.exec(pending);
      if (s === null) break;
      const gt = pending.indexOf('>', s.index);
      if (gt < 0) {
        keep = s.index;
        break;
      }
      if (pending.charCodeAt(gt - 1) === 47 /* / */) {
        each(pending.slice(s.index, gt + 1));
        pos = gt + 1;
        this.searched = 0;
        continue;
      }
      // an element kept from the last piece was searched up to `searched`; the end tag may
      // straddle that point, hence the small step back
      this.end.lastIndex = Math.max(gt, s.index + this.searched - 32);
      const e = this.end.exec(pending);
      if (e === null) {
        keep = s.index;
        break;
      }
      each(pending.slice(s.index, this.end.lastIndex));
      pos = this.end.lastIndex;
      this.searched = 0;
    }
    if (keep >= 0) {
      this.pending = pending.slice(keep);
      this.searched = this.pending.length;
    } else {
      // only a tail long enough to hold a start tag split across pieces
      this.pending = pending.slice(Math.max(pos, pending.length - 80));
      this.searched = 0;
    }
    if (this.pending.length > this.maxElementChars)
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
