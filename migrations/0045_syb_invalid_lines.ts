import { sql, type Kysely } from 'kysely';

/**
 * 顺运宝 lines the adapter cannot use are stored too (docs/syb-protocol.md, "Lines that cannot
 * be used"): `data_problem` says why in Chinese, and such a line may carry quantity 0 (SYB sent
 * 0, a negative number or none). SQLite cannot change a CHECK in place, so `syb_orders` is
 * rebuilt with the same columns, indexes and data. `syb_sync_state.retry_json` lists the
 * shipments whose detail call failed, so the next sync fetches them again even after
 * `last_synced_at` moved past their day.
 */
const UTC = (col: string) =>
  `${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'`;
const COLUMNS =
  'syb_id, order_no, title, product_spec, shopee_goods_id, shopee_sku_id, quantity, price_twd_cent, image_url, syb_data, created_at, first_synced_at, updated_at';

async function rebuild(db: Kysely<unknown>, withProblem: boolean): Promise<void> {
  const quantityCheck = withProblem ? 'quantity > 0 OR data_problem IS NOT NULL' : 'quantity > 0';
  await sql
    .raw(
      `CREATE TABLE syb_orders_new (
        syb_id TEXT PRIMARY KEY,
        order_no TEXT NOT NULL,
        title TEXT,
        product_spec TEXT,
        shopee_goods_id TEXT NOT NULL,
        shopee_sku_id TEXT,
        quantity INTEGER NOT NULL CHECK (${quantityCheck}),
        price_twd_cent INTEGER CHECK (price_twd_cent IS NULL OR price_twd_cent >= 0),
        image_url TEXT,
        syb_data TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(syb_data)),
        created_at TEXT NOT NULL CHECK (${UTC('created_at')}),
        first_synced_at TEXT NOT NULL CHECK (${UTC('first_synced_at')}),
        updated_at TEXT NOT NULL CHECK (${UTC('updated_at')})
        ${withProblem ? ', data_problem TEXT CHECK (data_problem IS NULL OR length(data_problem) BETWEEN 1 AND 500)' : ''}
      )`,
    )
    .execute(db);
  const where = withProblem ? '' : ' WHERE data_problem IS NULL AND quantity > 0';
  await sql.raw(`INSERT INTO syb_orders_new (${COLUMNS}) SELECT ${COLUMNS} FROM syb_orders${where}`).execute(db);
  await sql.raw('DROP TABLE syb_orders').execute(db);
  await sql.raw('ALTER TABLE syb_orders_new RENAME TO syb_orders').execute(db);
  await sql.raw('CREATE INDEX idx_syb_orders_order ON syb_orders(order_no)').execute(db);
  await sql.raw('CREATE INDEX idx_syb_orders_goods ON syb_orders(shopee_goods_id)').execute(db);
  await sql.raw('CREATE INDEX idx_syb_orders_list ON syb_orders(created_at DESC, syb_id DESC)').execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, true);
  await sql
    .raw(
      `ALTER TABLE syb_sync_state ADD COLUMN retry_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(retry_json) AND json_type(retry_json) = 'array')`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE syb_sync_state DROP COLUMN retry_json').execute(db);
  await rebuild(db, false);
}
