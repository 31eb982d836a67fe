import type { AdminDb } from '../../admin/db/database';

/**
 * Order lines and the purchases made for them, written straight into a migrated admin database:
 * the money figures are read from these rows and kept by its triggers (migrations/0160_money.ts),
 * whatever wrote them. A status change goes through an UPDATE, as the workflow's writes do.
 */
export interface SeedLine {
  sybId: string;
  /** UTC */
  createdAt: string;
  saleTwdCent: number | null;
  quantity: number;
  title?: string;
}

export async function seedLine(db: AdminDb, line: SeedLine): Promise<void> {
  await db
    .insertInto('syb_orders')
    .values({
      syb_id: line.sybId,
      syb_order_no: `TW-${line.sybId}`,
      title: line.title ?? `商品 ${line.sybId}`,
      product_spec: '黑色,M',
      shopee_goods_id: '33300000001',
      shopee_sku_id: '8001',
      quantity: line.quantity,
      price_twd_cent: line.saleTwdCent,
      image_url: null,
      syb_data: '{}',
      created_at: line.createdAt,
      first_synced_at: line.createdAt,
      updated_at: line.createdAt,
    })
    .execute();
}

export interface SeedPurchase {
  taskId: string;
  sybId: string | null;
  capCent: number;
  mode?: 'live' | 'dry_run';
  deviceId?: string;
  /** UTC of the draft */
  at: string;
}

/** A draft for the line; `fence`, `tap` and `status` move it on as the purchase does. */
export async function seedDraft(db: AdminDb, p: SeedPurchase): Promise<void> {
  await db
    .insertInto('tasks')
    .values({
      task_id: p.taskId,
      task_type: 'purchase',
      status: 'DRAFT',
      version: 1,
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=600000000101',
      pdd_goods_id: '600000000101',
      pdd_options: '{}',
      quantity: 1,
      max_total_price_cent: p.capCent,
      execution_mode: p.mode ?? 'live',
      syb_id: p.sybId,
      device_id: p.deviceId ?? null,
      created_at: p.at,
      updated_at: p.at,
    } as never)
    .execute();
}

/** The fence (a submission with its 提交订单 amount) and, when `tappedAt`, the tap. */
export async function seedSubmission(
  db: AdminDb,
  p: { taskId: string; amountCent: number; deviceId: string; at: string; tappedAt?: string },
): Promise<void> {
  const auth = `auth-${p.taskId}`;
  const attempt = `att-${p.taskId}`;
  await db
    .insertInto('order_authorizations')
    .values({
      id: auth,
      task_id: p.taskId,
      task_version: 1,
      start_key: `k-${p.taskId}`,
      goods_id: '600000000101',
      pdd_options: '{}',
      quantity: 1,
      max_total_price_cent: 100_000,
      execution_mode: 'live',
      status: 'CONSUMED',
      workflow_id: `purchase/${p.taskId}`,
      workflow_started_at: p.at,
      created_by: 'admin',
      created_at: p.at,
      expires_at: '2099-01-01T00:00:00Z',
      closed_at: null,
    })
    .execute();
  await db
    .insertInto('purchase_attempts')
    .values({
      id: attempt,
      task_id: p.taskId,
      authorization_id: auth,
      device_id: p.deviceId,
      workflow_id: `purchase/${p.taskId}`,
      status: 'RUNNING',
      step: null,
      gate1_unit_price_cent: null,
      gate2_panel_total_cent: null,
      quantity_read: null,
      gate3_submit_amount_cent: p.amountCent,
      confirmed_options: null,
      failure_code: null,
      failure_detail: null,
      artifact_ref: null,
      purchase_json: null,
      timeline_json: '[]',
      started_at: p.at,
      finished_at: null,
    } as never)
    .execute();
  await db
    .insertInto('order_submissions')
    .values({
      id: `sub-${p.taskId}`,
      task_id: p.taskId,
      authorization_id: auth,
      attempt_id: attempt,
      status: 'FENCED',
      gate1_unit_price_cent: p.amountCent,
      gate2_panel_total_cent: p.amountCent,
      quantity_read: 1,
      gate3_submit_amount_cent: p.amountCent,
      order_submitted_at: null,
      pdd_order_no: null,
      created_at: p.at,
      resolved_at: null,
      abandoned_at: null,
      ordered_at: null,
    } as never)
    .execute();
  if (p.tappedAt)
    await db
      .updateTable('order_submissions')
      .set({ order_submitted_at: p.tappedAt })
      .where('task_id', '=', p.taskId)
      .execute();
}

export async function setStatus(
  db: AdminDb,
  taskId: string,
  status: string,
  at: string,
  extra: { reason_code?: string; device_id?: string; pdd_order_no?: string } = {},
): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ status: status as never, updated_at: at, ...extra })
    .where('task_id', '=', taskId)
    .execute();
}

/** A live purchase made for the line and now waiting for payment (or paid, with `paidAt`). */
export async function seedPurchase(
  db: AdminDb,
  p: SeedPurchase & { amountCent: number; deviceId: string; waitingAt: string; paidAt?: string },
): Promise<void> {
  await seedDraft(db, p);
  await setStatus(db, p.taskId, 'PENDING', p.at);
  await seedSubmission(db, { ...p, tappedAt: p.waitingAt });
  await setStatus(db, p.taskId, 'ORDERING', p.at, { device_id: p.deviceId });
  await setStatus(db, p.taskId, 'WAITING_PAYMENT', p.waitingAt, { pdd_order_no: `PDD-${p.taskId}` });
  if (p.paidAt) await setStatus(db, p.taskId, 'SUCCEEDED', p.paidAt);
}
