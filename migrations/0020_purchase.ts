import { sql, type Kysely } from 'kysely';

/**
 * The purchase part (docs/architecture.md §4.2, §5.1): purchase columns on `tasks`, one-time
 * authorizations, attempts and the submission fence. Money is integer cents; times fixed-width
 * UTC. The UNIQUE constraints are the safety net under the workflow: one authorization per task
 * version, one attempt and at most one submission per authorization.
 */
const UTC = (col: string) =>
  sql.raw(`${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'`);
const UTC_OR_NULL = (col: string) =>
  sql.raw(
    `(${col} IS NULL OR ${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z')`,
  );
const PURCHASE_STATUSES = `'DRAFT','PENDING','CLAIMED','ORDERING','NEEDS_MANUAL','WAITING_PAYMENT','RECONCILIATION_REQUIRED','DRY_RUN_PASSED','SUCCEEDED','FAILED','CANCELED'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const addColumns: Array<[string, string]> = [
    ['title', 'text'],
    ['shop_name', 'text'],
    ['source', "text CHECK (source IS NULL OR source IN ('manual', 'syb'))"],
    ['source_ref', 'text'],
    ['pdd_options', 'text CHECK (pdd_options IS NULL OR json_valid(pdd_options))'],
    ['quantity', 'integer CHECK (quantity IS NULL OR quantity > 0)'],
    ['max_total_price_cent', 'integer CHECK (max_total_price_cent IS NULL OR max_total_price_cent > 0)'],
    ['execution_mode', "text CHECK (execution_mode IS NULL OR execution_mode IN ('dry_run', 'live'))"],
    ['authorization_id', 'text'],
    ['reason_code', 'text'],
    ['order_no', 'text'],
    ['started_at', 'text'],
    ['created_by', 'text'],
  ];
  for (const [name, type] of addColumns) {
    await sql.raw(`ALTER TABLE tasks ADD COLUMN ${name} ${type}`).execute(db);
  }
  // CHECK cannot be added to an existing table in SQLite; triggers hold the purchase states.
  for (const op of ['INSERT', 'UPDATE']) {
    await sql
      .raw(
        `CREATE TRIGGER tasks_purchase_status_${op.toLowerCase()} BEFORE ${op} ON tasks
         WHEN NEW.task_type = 'purchase' AND (NEW.status NOT IN (${PURCHASE_STATUSES})
           OR NEW.quantity IS NULL OR NEW.max_total_price_cent IS NULL OR NEW.pdd_options IS NULL OR NEW.execution_mode IS NULL)
         BEGIN SELECT RAISE(ABORT, 'purchase task needs a purchase status, options, quantity, cap and mode'); END`,
      )
      .execute(db);
  }
  await db.schema
    .createIndex('idx_tasks_type_status')
    .on('tasks')
    .columns(['task_type', 'status', 'updated_at'])
    .execute();

  await db.schema
    .createTable('order_authorizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.task_id'))
    .addColumn('task_version', 'integer', (c) => c.notNull())
    .addColumn('start_key', 'text', (c) => c.notNull())
    .addColumn('goods_id', 'text', (c) => c.notNull())
    .addColumn('pdd_options', 'text', (c) => c.notNull().check(sql`json_valid(pdd_options)`))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('total_price_cap_cent', 'integer', (c) => c.notNull().check(sql`total_price_cap_cent > 0`))
    .addColumn('execution_mode', 'text', (c) => c.notNull().check(sql`execution_mode IN ('dry_run', 'live')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status IN ('ACTIVE', 'CLAIMED', 'FENCED', 'CONSUMED', 'EXPIRED', 'ABANDONED')`),
    )
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('workflow_started_at', 'text', (c) => c.check(UTC_OR_NULL('workflow_started_at')))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().check(UTC('created_at')))
    .addColumn('expires_at', 'text', (c) => c.notNull().check(UTC('expires_at')))
    .addColumn('closed_at', 'text', (c) => c.check(UTC_OR_NULL('closed_at')))
    .addUniqueConstraint('uq_authorizations_task_version', ['task_id', 'task_version'])
    .addUniqueConstraint('uq_authorizations_start_key', ['start_key', 'task_id'])
    .addCheckConstraint('ck_authorizations_expiry', sql`expires_at > created_at`)
    .execute();
  // The sweep looks for authorised tasks whose workflow has not been started yet.
  await db.schema
    .createIndex('idx_authorizations_unstarted')
    .on('order_authorizations')
    .column('created_at')
    .where(sql.ref('workflow_started_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('purchase_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.task_id'))
    .addColumn('authorization_id', 'text', (c) => c.notNull().unique().references('order_authorizations.id'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`status IN ('RUNNING', 'STOPPED', 'PASSED', 'FENCED', 'SUBMITTED', 'RECONCILIATION_REQUIRED', 'RESOLVED')`,
        ),
    )
    .addColumn('step', 'text')
    .addColumn('gate1_unit_price_cent', 'integer')
    .addColumn('gate2_panel_total_cent', 'integer')
    .addColumn('quantity_read', 'integer')
    .addColumn('gate3_submit_amount_cent', 'integer')
    .addColumn('confirmed_options', 'text', (c) =>
      c.check(sql`confirmed_options IS NULL OR json_valid(confirmed_options)`),
    )
    .addColumn('failure_code', 'text')
    .addColumn('failure_detail', 'text')
    .addColumn('artifact_ref', 'text')
    .addColumn('purchase_json', 'text', (c) => c.check(sql`purchase_json IS NULL OR json_valid(purchase_json)`))
    .addColumn('timeline_json', 'text', (c) =>
      c
        .notNull()
        .defaultTo('[]')
        .check(sql`json_valid(timeline_json)`),
    )
    .addColumn('started_at', 'text', (c) => c.notNull().check(UTC('started_at')))
    .addColumn('finished_at', 'text', (c) => c.check(UTC_OR_NULL('finished_at')))
    .addUniqueConstraint('uq_attempts_task_id', ['task_id', 'id'])
    .execute();

  await db.schema
    .createTable('order_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.task_id'))
    .addColumn('authorization_id', 'text', (c) => c.notNull().unique().references('order_authorizations.id'))
    .addColumn('attempt_id', 'text', (c) => c.notNull().unique().references('purchase_attempts.id'))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status IN ('FENCED', 'SUBMITTED', 'RECONCILIATION_REQUIRED', 'MANUAL_RESOLVED')`),
    )
    .addColumn('gate1_unit_price_cent', 'integer', (c) => c.notNull())
    .addColumn('gate2_panel_total_cent', 'integer', (c) => c.notNull())
    .addColumn('quantity_read', 'integer', (c) => c.notNull())
    .addColumn('gate3_submit_amount_cent', 'integer', (c) => c.notNull())
    .addColumn('order_submitted_at', 'text', (c) => c.check(UTC_OR_NULL('order_submitted_at')))
    .addColumn('order_no', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().check(UTC('created_at')))
    .addColumn('resolved_at', 'text', (c) => c.check(UTC_OR_NULL('resolved_at')))
    .addCheckConstraint('ck_submissions_gate3', sql`gate3_submit_amount_cent = gate2_panel_total_cent`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('order_submissions').execute();
  await db.schema.dropTable('purchase_attempts').execute();
  await db.schema.dropTable('order_authorizations').execute();
}
