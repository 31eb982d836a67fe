import { sql, type Kysely } from 'kysely';

/**
 * The stored `purchase` object of a task's result names the PDD order number `pdd_order_no`, as
 * every column and answer does (docs/api.md "Names"); it was `order_no`. Rewritten where it is
 * stored: `purchase_attempts.purchase_json` and `tasks.result_data` (under `purchase`). A result
 * a workflow from before still hands over after the deploy is renamed on its way in
 * (migrations/payloads/purchase-result.ts).
 *
 * `STORED`: each table, its JSON column and the path of the `purchase` object in it.
 */
const STORED = [
  { table: 'purchase_attempts', column: 'purchase_json', at: '$' },
  { table: 'tasks', column: 'result_data', at: '$.purchase' },
];

async function rename(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  for (const { table, column: c, at } of STORED)
    await sql
      .raw(
        `UPDATE ${table} SET ${c} = json_remove(json_set(${c}, '${at}.${to}', json_extract(${c}, '${at}.${from}')), '${at}.${from}')
         WHERE ${c} IS NOT NULL AND json_valid(${c}) AND json_type(${c}, '${at}.${from}') IS NOT NULL`,
      )
      .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rename(db, 'order_no', 'pdd_order_no');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rename(db, 'pdd_order_no', 'order_no');
}
