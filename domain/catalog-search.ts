import type { ConverterFunction, ConverterOptions } from 'opencc-js/t2cn' with { 'resolution-mode': 'require' };

/**
 * Search that does not care whether a title was written in simplified or traditional
 * characters: Shopee Taiwan titles are traditional (西裝外套), operators often type simplified
 * (西装外套). Stored text and the operator's query are folded the same way — to simplified,
 * because traditional → simplified is mostly many-to-one (發/髮 → 发), so a simplified query
 * finds every traditional spelling — and compared with a literal substring match
 * (admin/db/like.ts). Character-level only (Taiwan variants and characters, no phrase
 * rewriting such as 軟體 → 软件), so a fold never changes which words a title contains.
 *
 * opencc-js ships ES modules with a CommonJS build; this project compiles to CommonJS, so the
 * CommonJS build is loaded by `require` and typed from the package's own declarations.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const opencc = require('opencc-js/t2cn') as { Converter(options: ConverterOptions): ConverterFunction };
const toSimplified = opencc.Converter({ from: 'tw', to: 'cn' });

/** One piece of text as search sees it: full-width forms folded (NFKC), lower case, simplified. */
export function foldForSearch(text: string): string {
  return toSimplified(text.normalize('NFKC').toLowerCase());
}

/**
 * The `search_text` column of a row: its searchable fields folded and joined by a line break,
 * which a one-line search box cannot contain, so a query never matches across two fields.
 * Null when the row has nothing to search yet (a PDD goods before its first collect).
 */
export function searchTextOf(...fields: ReadonlyArray<string | null | undefined>): string | null {
  const present = fields.filter((f): f is string => typeof f === 'string' && f !== '');
  return present.length === 0 ? null : present.map(foldForSearch).join('\n');
}
