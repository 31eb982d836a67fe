import { sql, type Kysely } from 'kysely';

/**
 * Catalog (docs/architecture.md §5.1–§5.2): Shopee products and SKUs from the
 * export, PDD goods with what a phone collected, the SKU mappings, collect tasks and which
 * device ran them. Money inside skus_json is integer cents; every time is fixed-width UTC.
 * Append-only: change the schema with a new migration, never by editing this one.
 */
const UTC_CHECK = (col: string) =>
  sql.raw(`${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'`);
const UTC_OR_NULL = (col: string) =>
  sql.raw(
    `(${col} IS NULL OR ${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z')`,
  );
const DIGITS = (col: string) => sql.raw(`(${col} <> '' AND ${col} NOT GLOB '*[^0-9]*')`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shopee_products')
    .addColumn('goods_id', 'text', (c) => c.primaryKey().check(DIGITS('goods_id')))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('shopee_status', 'text')
    .addColumn('main_sku_code', 'text')
    // maintained by operators, never by the import (docs/architecture.md §5.2)
    .addColumn('pdd_goods_url', 'text')
    .addColumn('pdd_goods_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().check(UTC_CHECK('created_at')))
    .addColumn('updated_at', 'text', (c) => c.notNull().check(UTC_CHECK('updated_at')))
    .execute();
  await db.schema.createIndex('idx_shopee_products_pdd').on('shopee_products').column('pdd_goods_id').execute();

  await db.schema
    .createTable('shopee_skus')
    .addColumn('sku_id', 'text', (c) => c.primaryKey().check(DIGITS('sku_id')))
    .addColumn('goods_id', 'text', (c) => c.notNull().references('shopee_products.goods_id').onDelete('cascade'))
    .addColumn('spec_raw', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('size', 'text')
    .addColumn('advice', 'text')
    .addColumn('parse_ok', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`parse_ok IN (0, 1)`),
    )
    .addColumn('sku_code', 'text')
    .addColumn('is_manual', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`is_manual IN (0, 1)`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull().check(UTC_CHECK('created_at')))
    .addColumn('updated_at', 'text', (c) => c.notNull().check(UTC_CHECK('updated_at')))
    .execute();
  await db.schema.createIndex('idx_shopee_skus_goods').on('shopee_skus').column('goods_id').execute();
  await db.schema.createIndex('idx_shopee_skus_parse').on('shopee_skus').column('parse_ok').execute();

  await db.schema
    .createTable('pdd_products')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('goods_id', 'text', (c) => c.notNull().unique().check(DIGITS('goods_id')))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('shop_name', 'text')
    .addColumn('skus_json', 'text', (c) => c.check(sql`skus_json IS NULL OR json_valid(skus_json)`))
    .addColumn('collect_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`collect_status IN ('pending', 'collecting', 'collected', 'failed')`),
    )
    .addColumn('collect_msg', 'text')
    .addColumn('collect_code', 'text')
    .addColumn('artifact_ref', 'text')
    .addColumn('collected_at', 'text', (c) => c.check(UTC_OR_NULL('collected_at')))
    // the collect run the status belongs to (workflow `collect/<goods_id>`, one run id each)
    .addColumn('collect_workflow_id', 'text')
    .addColumn('collect_run_id', 'text')
    .addColumn('collect_device_id', 'text')
    .addColumn('deleted_at', 'text', (c) => c.check(UTC_OR_NULL('deleted_at')))
    .addColumn('created_at', 'text', (c) => c.notNull().check(UTC_CHECK('created_at')))
    .addColumn('updated_at', 'text', (c) => c.notNull().check(UTC_CHECK('updated_at')))
    .execute();
  await db.schema.createIndex('idx_pdd_products_status').on('pdd_products').column('collect_status').execute();

  await db.schema
    .createTable('sku_mappings')
    .addColumn('shopee_sku_id', 'text', (c) => c.notNull().references('shopee_skus.sku_id').onDelete('cascade'))
    .addColumn('pdd_goods_id', 'text', (c) => c.notNull())
    .addColumn('pdd_option_key', 'text', (c) => c.notNull())
    .addColumn('pdd_options', 'text', (c) => c.notNull().check(sql`json_valid(pdd_options)`))
    .addColumn('goods_id', 'text', (c) => c.notNull())
    .addColumn('mapped_at', 'text', (c) => c.notNull().check(UTC_CHECK('mapped_at')))
    .addColumn('mapped_by', 'text')
    .addPrimaryKeyConstraint('pk_sku_mappings', ['shopee_sku_id', 'pdd_goods_id'])
    .execute();
  await db.schema.createIndex('idx_sku_mappings_goods').on('sku_mappings').column('goods_id').execute();
  await db.schema.createIndex('idx_sku_mappings_pdd').on('sku_mappings').column('pdd_goods_id').execute();

  // Collect and purchase tasks share this table (docs/architecture.md §5.1); this migration defines the
  // collect part. Statuses are only constrained for collect rows, so the purchase part can
  // bring its own states with a later migration.
  await db.schema
    .createTable('tasks')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('task_type', 'text', (c) => c.notNull().check(sql`task_type IN ('collect', 'purchase')`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`version > 0`),
    )
    .addColumn('workflow_id', 'text')
    .addColumn('run_id', 'text')
    .addColumn('pdd_goods_url', 'text', (c) => c.notNull())
    .addColumn('pdd_goods_id', 'text')
    .addColumn('device_id', 'text')
    .addColumn('result_data', 'text', (c) => c.check(sql`result_data IS NULL OR json_valid(result_data)`))
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('artifact_ref', 'text')
    .addColumn('finished_at', 'text', (c) => c.check(UTC_OR_NULL('finished_at')))
    .addColumn('created_at', 'text', (c) => c.notNull().check(UTC_CHECK('created_at')))
    .addColumn('updated_at', 'text', (c) => c.notNull().check(UTC_CHECK('updated_at')))
    .addCheckConstraint(
      'ck_tasks_collect_status',
      sql`task_type <> 'collect' OR status IN ('queued', 'collecting', 'succeeded', 'failed', 'rejected')`,
    )
    .execute();
  await db.schema.createIndex('idx_tasks_list').on('tasks').columns(['updated_at desc', 'task_id desc']).execute();
  await db.schema.createIndex('idx_tasks_goods').on('tasks').columns(['pdd_goods_id', 'created_at']).execute();

  // Which device ran which task (docs/architecture.md §5.1); claiming again only moves claimed_at.
  await db.schema
    .createTable('task_claims')
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.task_id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull().check(UTC_CHECK('claimed_at')))
    .addPrimaryKeyConstraint('pk_task_claims', ['task_id', 'device_id'])
    .execute();
  await db.schema.createIndex('idx_task_claims_device').on('task_claims').column('device_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['task_claims', 'tasks', 'sku_mappings', 'pdd_products', 'shopee_skus', 'shopee_products']) {
    await db.schema.dropTable(t).execute();
  }
}
