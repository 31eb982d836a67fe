/**
 * Text rules shared by every place that stores or shows operator-facing text
 * (docs/security.md "Names and text").
 */

/**
 * DEL, the C1 controls and the Unicode direction controls (U+202A–U+202E, U+2066–U+2069, LRM,
 * RLM, ALM): a text holding one can render as something else than it is (U+202E flips what
 * follows). Every rule below refuses them; the rules differ only in the C0 controls they let by.
 */
const DEL_C1_DIRECTION = '\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const unsafeWith = (c0: string) => new RegExp(`[${c0}${DEL_C1_DIRECTION}]`, 'gu');

/** Names refuse every C0 control, tab included. */
const UNSAFE_IN_NAMES = unsafeWith('\\u0000-\\u001f');

export function hasUnsafeNameChars(text: string): boolean {
  UNSAFE_IN_NAMES.lastIndex = 0;
  return UNSAFE_IN_NAMES.test(text);
}

export const UNSAFE_NAME_MESSAGE = 'must not contain control or text-direction characters (such as U+202E)';

/**
 * At most `maxUnits` UTF-16 units (what a zod `.max()` counts), never ending inside a surrogate
 * pair: a lone half would be stored as an unpaired surrogate, shown as U+FFFD everywhere.
 */
export function cutText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const last = text.charCodeAt(maxUnits - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? maxUnits - 1 : maxUnits);
}

/**
 * What outside text may never carry into storage (docs/security.md "Names and text"): the
 * characters above, the C0 controls but tab (refused too with `tab: false`) and, where a field
 * is multi-line, newline and carriage return, and lone surrogates (half of a pair, which no
 * encoder can write back out). One rule for every write path — import cells, host and device
 * registration, settings — so they cannot drift apart.
 */
const UNSAFE = {
  oneLine: unsafeWith('\\u0000-\\u0008\\u000a-\\u001f'),
  multiLine: unsafeWith('\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f'),
  noTab: UNSAFE_IN_NAMES,
};

export interface TextRule {
  /** newline and carriage return are allowed (a free-text field) */
  multiLine?: boolean;
  /** false: tab is refused too (a value that ends up in a header or a URL) */
  tab?: boolean;
}

/** Half of a surrogate pair with no other half beside it (no `u` flag: the halves are matched as units). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const unsafeOf = (rule: TextRule) =>
  rule.tab === false ? UNSAFE.noTab : rule.multiLine === true ? UNSAFE.multiLine : UNSAFE.oneLine;

/** The first character the rule refuses, as `U+XXXX`, or null when the text may be stored as it is. */
export function unsafeTextChar(text: string, rule: TextRule = {}): string | null {
  LONE_SURROGATE.lastIndex = 0;
  if (LONE_SURROGATE.test(text)) return 'a lone surrogate';
  const re = unsafeOf(rule);
  re.lastIndex = 0;
  const m = re.exec(text);
  return m === null ? null : `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The text with what the rule refuses removed: for bulk input (an import) where refusing a row for a stray BEL helps no one. */
export function cleanText(text: string, rule: TextRule = {}): string {
  const re = unsafeOf(rule);
  re.lastIndex = 0;
  const wellFormed = text.replace(LONE_SURROGATE, '');
  return re.test(wellFormed) ? wellFormed.replace(re, '') : wellFormed;
}

export const UNSAFE_TEXT_MESSAGE = 'must not contain control characters, text-direction controls or lone surrogates';
