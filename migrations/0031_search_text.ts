import type { ConverterFunction, ConverterOptions } from 'opencc-js/t2cn' with { 'resolution-mode': 'require' };
import { sql, type Kysely } from 'kysely';

/**
 * `search_text`: the searchable text of a row folded to one script (simplified, lower case), so
 * a search for 西装外套 finds 西裝外套 and the other way round without converting every row on
 * every query. The admin writes it with every change of the fields it covers
 * (domain/catalog-search.ts `searchTextOf`):
 *   shopee_products: title · pdd_products: title, shop_name · tasks: title.
 *
 * The back-fill below is this migration's own copy of that fold, on purpose: migrations import
 * nothing of ours (docs/architecture.md §2.4), and what a released migration writes must not
 * change when the live fold does. A later change of the fold brings its own re-fill migration.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const opencc = require('opencc-js/t2cn') as { Converter(options: ConverterOptions): ConverterFunction };
const toSimplified = opencc.Converter({ from: 'tw', to: 'cn' });
const fold = (...fields: Array<string | null>): string | null => {
  const present = fields.filter((f): f is string => typeof f === 'string' && f !== '');
  return present.length === 0 ? null : present.map((f) => toSimplified(f.normalize('NFKC').toLowerCase())).join('\n');
};

const TABLES: ReadonlyArray<{ table: string; key: string; fields: readonly string[] }> = [
  { table: 'shopee_products', key: 'goods_id', fields: ['title'] },
  { table: 'pdd_products', key: 'id', fields: ['title', 'shop_name'] },
  { table: 'tasks', key: 'task_id', fields: ['title'] },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { table, key, fields } of TABLES) {
    await sql.raw(`ALTER TABLE ${table} ADD COLUMN search_text TEXT`).execute(db);
    const rows = await sql<
      Record<string, string | number | null>
    >`select ${sql.ref(key)} as k, ${sql.join(fields.map((f) => sql.ref(f)))} from ${sql.table(table)}`.execute(db);
    for (const row of rows.rows) {
      const text = fold(...fields.map((f) => (typeof row[f] === 'string' ? (row[f] as string) : null)));
      if (text !== null)
        await sql`update ${sql.table(table)} set search_text = ${text} where ${sql.ref(key)} = ${row.k}`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table } of TABLES) await sql.raw(`ALTER TABLE ${table} DROP COLUMN search_text`).execute(db);
}
