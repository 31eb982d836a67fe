import { sql, type Expression, type ExpressionBuilder, type SqlBool, type StringReference } from 'kysely';

/** `%` and `_` (and the escape character itself) in an operator's search text are literal. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}

/**
 * `column LIKE '%text%' ESCAPE '\'`: a substring search where the text is taken literally.
 * Kysely's `eb(col, 'like', …)` has no ESCAPE clause, and without one SQLite reads the
 * backslashes of the escaped pattern as plain characters (so `a_b` would never match).
 * SQLite's LIKE is case-insensitive for ASCII only.
 */
export function containsText<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  column: StringReference<DB, TB>,
  text: string,
): Expression<SqlBool> {
  return sql<SqlBool>`${eb.ref(column)} like ${containsPattern(text)} escape '\\'`;
}
