/**
 * The scanning the import's XML reading is built from (admin/catalog/xlsx-xml.ts, the small
 * parts in admin/catalog/xlsx.ts): `indexOf` and single passes over characters, never a regular
 * expression over the workbook's text. A lazy pattern such as `<c\b[^>]*?>[\s\S]*?</c>`
 * re-reads the rest of the text for every start tag that never closes; each function here reads
 * every character a bounded number of times, whatever the text holds (docs/security.md
 * "Imports"). Names match with or without a namespace prefix (`x:row`), as generators write them.
 */

const GT = 62; // >
export const SLASH = 47; // /
export const COLON = 58; // :
const EQUALS = 61; // =
const DQUOTE = 34; // "
const SQUOTE = 39; // '

/** `[A-Za-z0-9_]`: a character that continues a word (what `\b` looks at) */
const isWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** `[A-Za-z_]`: the first character of a namespace prefix */
const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** `[\w.-]`: the other characters of a namespace prefix */
export const isNameChar = (c: number) => isWord(c) || c === 46 || c === 45;

/** What `\s` matches, character by character. */
function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/**
 * The end of an element name `name` written at `i` (just after `<` or `</`), with or without a
 * namespace prefix (`x:row` — any prefix a generator chose): the index after the name, or -1.
 * `boundary`: the name must not go on as a longer word (`<row` but not `<rows`). Reads only the
 * prefix's characters, which hold no `<`, so scanning every `<` of a text stays linear.
 */
function nameAt(s: string, i: number, name: string, boundary: boolean): number {
  if (isNameStart(s.charCodeAt(i))) {
    let j = i + 1;
    while (j < s.length && isNameChar(s.charCodeAt(j))) j++;
    if (s.charCodeAt(j) === COLON) {
      const prefixed = nameEndsAt(s, j + 1, name, boundary);
      if (prefixed >= 0) return prefixed;
    }
  }
  return nameEndsAt(s, i, name, boundary);
}

/** `name` written at `at` (and, with `boundary`, not going on as a longer word): the index after it, or -1. */
function nameEndsAt(s: string, at: number, name: string, boundary: boolean): number {
  if (!s.startsWith(name, at)) return -1;
  return boundary && isWord(s.charCodeAt(at + name.length)) ? -1 : at + name.length;
}

/** The `>` closing an end tag whose name ends at `at` (-1: none), after white space if `spaces`: the index after it, or -1. */
function closesAt(s: string, at: number, spaces: boolean): number {
  if (at < 0) return -1;
  const gt = spaces ? skipSpaces(s, at) : at;
  return s.charCodeAt(gt) === GT ? gt + 1 : -1;
}

/** The end tag `</name>` (any prefix; `spaces`: `</name  >` too) at `lt`: the index after it, or -1. */
function endTagAt(s: string, lt: number, name: string, spaces: boolean): number {
  // with a prefix, then without (`</row:row>` is the first, `</row >` the second)
  const named = nameAt(s, lt + 2, name, false);
  const found = closesAt(s, named, spaces);
  if (found >= 0 || named === lt + 2 + name.length) return found;
  return closesAt(s, nameEndsAt(s, lt + 2, name, false), spaces);
}

/** The first end tag of `name` at or after `from`: where it starts and the index after it, or null. */
export function findEndTag(
  s: string,
  from: number,
  name: string,
  spaces = false,
): { start: number; end: number } | null {
  for (let lt = s.indexOf('</', from); lt >= 0; lt = s.indexOf('</', lt + 2)) {
    const end = endTagAt(s, lt, name, spaces);
    if (end >= 0) return { start: lt, end };
  }
  return null;
}

/** The end of the start tag `<name` (any prefix, ending there as a word) at `lt`, or -1. */
export const startTagAt = (s: string, lt: number, name: string) => nameAt(s, lt + 1, name, true);

interface Found {
  /** the `<` of its start tag */
  start: number;
  /** where its content begins and ends */
  inner: number;
  innerEnd: number;
  /** the index after its end tag */
  end: number;
}

/**
 * The first element `name` at or after `from` that has an end tag, its content ending at the
 * first end tag after it (no nesting: SpreadsheetML never nests these in themselves).
 * `open` — the start tag is `<name` ending as a word and the content begins right after the
 * name (`<rPh …>`, `<is>`); `tag` — the start tag is `<name>` or `<name attributes>` and the
 * content begins after its `>` (`<t>`, `<v>`).
 *
 * When the first candidate has no end tag after it, none after it can have one either, so
 * the search ends there: an unclosed `<t><t><t>…` costs one pass, not one pass per `<t>`.
 */
export function findElement(s: string, from: number, name: string, kind: 'open' | 'tag'): Found | null {
  for (let lt = s.indexOf('<', from); lt >= 0; lt = s.indexOf('<', lt + 1)) {
    const after = kind === 'open' ? startTagAt(s, lt, name) : nameAt(s, lt + 1, name, false);
    if (after < 0) continue;
    let inner = after;
    if (kind === 'tag') {
      const c = s.charCodeAt(after);
      if (c === GT) inner = after + 1;
      else if (isSpace(c)) {
        const gt = s.indexOf('>', after);
        if (gt < 0) return null;
        inner = gt + 1;
      } else continue;
    }
    const end = findEndTag(s, inner, name);
    if (end === null) return null;
    return { start: lt, inner, innerEnd: end.start, end: end.end };
  }
  return null;
}

/**
 * The value of attribute `name` in a start tag's attribute text — the first `name = "…"` or
 * `name = '…'` that begins the text or follows white space — or undefined. A quote that is
 * never closed is remembered, so a tag full of them is still read once.
 */
export function attribute(attrs: string, name: string): string | undefined {
  /** a quote with no closing one after it: no later value in that quote can close either */
  const unclosed = new Set<number>();
  for (let i = attrs.indexOf(name); i >= 0; i = attrs.indexOf(name, i + 1)) {
    if (i > 0 && !isSpace(attrs.charCodeAt(i - 1))) continue;
    let j = skipSpaces(attrs, i + name.length);
    if (attrs.charCodeAt(j) !== EQUALS) continue;
    j = skipSpaces(attrs, j + 1);
    const quote = attrs.charCodeAt(j);
    if ((quote !== DQUOTE && quote !== SQUOTE) || unclosed.has(quote)) continue;
    const close = attrs.indexOf(String.fromCharCode(quote), j + 1);
    if (close < 0) {
      unclosed.add(quote);
      continue;
    }
    return attrs.slice(j + 1, close);
  }
  return undefined;
}

/**
 * Every start tag `<name …>` (any prefix, ending there as a word) of a small part, from its `<`
 * to the first `>` after it — for workbook.xml and its relationships.
 */
export function startTags(xml: string, name: string): string[] {
  const tags: string[] = [];
  for (let lt = xml.indexOf('<'); lt >= 0; lt = xml.indexOf('<', lt + 1)) {
    const after = startTagAt(xml, lt, name);
    if (after < 0) continue;
    const gt = xml.indexOf('>', after);
    if (gt < 0) break;
    tags.push(xml.slice(lt, gt + 1));
    lt = gt;
  }
  return tags;
}

/**
 * The attributes of one start tag (`<sheet name="商品" r:id="rId1"/>`) as name → value, the
 * first of a name kept; reading stops at anything that is not `name="…"` or `name='…'`.
 */
export function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  const endsName = (c: number) => isSpace(c) || c === EQUALS || c === GT || c === SLASH || c === DQUOTE || c === SQUOTE;
  let i = 1;
  while (i < tag.length && !endsName(tag.charCodeAt(i))) i++;
  for (;;) {
    i = skipSpaces(tag, i);
    const nameStart = i;
    while (i < tag.length && !endsName(tag.charCodeAt(i))) i++;
    if (i === nameStart) return found;
    const name = tag.slice(nameStart, i);
    i = skipSpaces(tag, i);
    if (tag.charCodeAt(i) !== EQUALS) return found;
    i = skipSpaces(tag, i + 1);
    const quote = tag.charCodeAt(i);
    if (quote !== DQUOTE && quote !== SQUOTE) return found;
    const close = tag.indexOf(String.fromCharCode(quote), i + 1);
    if (close < 0) return found;
    if (!found.has(name)) found.set(name, tag.slice(i + 1, close));
    i = close + 1;
  }
}
