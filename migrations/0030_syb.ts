import { sql, type Kysely } from 'kysely';

/**
 * 顺运宝 orders (docs/syb-protocol.md): one `syb_orders` row per shipment
 * detail line, the session's expiry (never the cookie: it is a credential and stays in the
 * admin's memory), and the one-row sync state. Purchase tasks drafted from a line carry it.
 *
 * `shopee_sku_id` has no foreign key on purpose: a line whose Shopee SKU is not (yet) in the
 * local catalog is normal and must still be stored (shown as SKU 未收录).
 */
const UTC = (col: string) =>
  sql.raw(`${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'`);
const UTC_OR_NULL = (col: string) =>
  sql.raw(
    `(${col} IS NULL OR ${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z')`,
  );
/** domain/syb.ts LIVE_LINE_TASK_STATES as of this migration (a migration never changes). */
const LIVE_TASK_STATES = `'DRAFT','PENDING','CLAIMED','ORDERING','NEEDS_MANUAL','WAITING_PAYMENT','RECONCILIATION_REQUIRED','SUCCEEDED'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('syb_orders')
    .addColumn('syb_id', 'text', (c) => c.primaryKey())
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('product_spec', 'text')
    .addColumn('shopee_goods_id', 'text', (c) => c.notNull())
    .addColumn('shopee_sku_id', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('price_twd_cent', 'integer', (c) => c.check(sql`price_twd_cent IS NULL OR price_twd_cent >= 0`))
    .addColumn('image_url', 'text')
    .addColumn('syb_data', 'text', (c) =>
      c
        .notNull()
        .defaultTo('{}')
        .check(sql`json_valid(syb_data)`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull().check(UTC('created_at')))
    .addColumn('first_synced_at', 'text', (c) => c.notNull().check(UTC('first_synced_at')))
    .addColumn('updated_at', 'text', (c) => c.notNull().check(UTC('updated_at')))
    .execute();
  await db.schema.createIndex('idx_syb_orders_order').on('syb_orders').column('order_no').execute();
  await db.schema.createIndex('idx_syb_orders_goods').on('syb_orders').column('shopee_goods_id').execute();
  await db.schema
    .createIndex('idx_syb_orders_list')
    .on('syb_orders')
    .columns(['created_at desc', 'syb_id desc'])
    .execute();

  await db.schema
    .createTable('syb_session')
    .addColumn('username', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull().check(UTC('expires_at')))
    .addColumn('logged_in_at', 'text', (c) => c.notNull().check(UTC('logged_in_at')))
    .addColumn('updated_at', 'text', (c) => c.notNull().check(UTC('updated_at')))
    .execute();

  await db.schema
    .createTable('syb_sync_state')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('last_synced_at', 'text', (c) => c.check(UTC_OR_NULL('last_synced_at')))
    .addColumn('last_error', 'text')
    .addColumn('running', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`running IN (0, 1)`),
    )
    .addColumn('started_at', 'text', (c) => c.check(UTC_OR_NULL('started_at')))
    .addColumn('finished_at', 'text', (c) => c.check(UTC_OR_NULL('finished_at')))
    .addColumn('progress_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_lines', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull().check(UTC('updated_at')))
    .execute();
  await sql`INSERT INTO syb_sync_state (id, updated_at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))`.execute(db);

  // The order line a purchase draft came from. `syb_order_no` is the SYB order number; the
  // existing `tasks.order_no` still holds the PDD order number (API: `pdd_order_no`).
  for (const col of ['syb_id', 'syb_order_no', 'shopee_goods_id', 'shopee_sku_id']) {
    await sql.raw(`ALTER TABLE tasks ADD COLUMN ${col} TEXT`).execute(db);
  }
  // At most one live task per order line, whatever races: a second draft fails here.
  await sql
    .raw(
      `CREATE UNIQUE INDEX uq_tasks_live_syb_line ON tasks(syb_id) WHERE syb_id IS NOT NULL AND status IN (${LIVE_TASK_STATES})`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX uq_tasks_live_syb_line').execute(db);
  for (const col of ['shopee_sku_id', 'shopee_goods_id', 'syb_order_no', 'syb_id']) {
    await sql.raw(`ALTER TABLE tasks DROP COLUMN ${col}`).execute(db);
  }
  await db.schema.dropTable('syb_sync_state').execute();
  await db.schema.dropTable('syb_session').execute();
  await db.schema.dropTable('syb_orders').execute();
}
