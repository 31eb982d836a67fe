/**
 * The one canonical key of an option combination (docs/architecture.md §5.2): independent of key order,
 * and unambiguous whatever the values contain (quotes, commas, `=`, `|`), because it is the
 * JSON of the entries sorted by dimension key.
 */
export type Options = Readonly<Record<string, string>>;

export function optionKey(options: Options): string {
  const entries = Object.entries(options).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

export function sameOptions(a: Options, b: Options): boolean {
  return optionKey(a) === optionKey(b);
}
