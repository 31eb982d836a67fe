/**
 * Text rules shared by every place that stores or shows operator-facing text
 * (docs/security.md "Names and text").
 */

/**
 * C0/C1 controls and the Unicode direction controls (U+202A–U+202E, U+2066–U+2069, LRM, RLM,
 * ALM): a name holding one can render as something else than it is (U+202E flips what
 * follows), so names refuse them.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export function hasUnsafeNameChars(text: string): boolean {
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
