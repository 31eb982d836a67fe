import type { AttentionItem, AttentionQueue } from '../../domain/attention';
import { attentionReasonZh } from '../../domain/devices';
import { canonicalReason, reasonInfo } from '../../domain/purchase/reasons';
import { STATUS_ZH, type PurchaseStatus } from '../../domain/purchase/status';
import type { AdminDb } from '../db/database';
import { draftPriceFlags } from '../purchase/price-watch';
import { paymentMismatches } from '../purchase/payment-checks';
import { phoneClaimStates } from '../devices/claimability';
import { claimWarningsOf } from '../purchase/claim-warnings';

/**
 * The stops only a person moves on. WAITING_PAYMENT also waits for one, but it is the ordinary
 * way to the end (pay, then 标记已付款), not a stop; the task list keeps it.
 */
const WAITING_STATUSES = ['NEEDS_MANUAL', 'RECONCILIATION_REQUIRED'] as const satisfies readonly PurchaseStatus[];

/** 需处理: the phones with attention and the stopped tasks, oldest first. */
export async function attentionQueue(db: AdminDb): Promise<AttentionQueue> {
  const items = [
    ...(await waitingDevices(db)),
    ...(await waitingTasks(db)),
    ...(await repricedDrafts(db)),
    ...(await paymentMismatches(db)),
    ...(await unclaimedTasks(db)),
  ];
  items.sort((a, b) => cmp(a.since, b.since) || cmp(a.kind, b.kind) || cmp(a.id, b.id));
  return { items };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A revoked phone takes no claim anyway; its attention row is history, not work. */
async function waitingDevices(db: AdminDb): Promise<AttentionItem[]> {
  const rows = await db
    .selectFrom('device_attention as da')
    .innerJoin('device_credentials as dc', 'dc.device_id', 'da.device_id')
    .select(['da.device_id', 'da.reason_code', 'da.since', 'dc.display_name'])
    .where('dc.status', '=', 'ACTIVE')
    .execute();
  return rows.map((r) => ({
    kind: 'device',
    id: r.device_id,
    reason_code: r.reason_code,
    reason_zh: attentionReasonZh(r.reason_code),
    since: r.since,
    title: r.display_name,
    device_id: r.device_id,
  }));
}

/**
 * `since` is `updated_at`: the status write sets it with the move into the stop, and nothing
 * but the operator's action writes the task again (admin/purchase/task-fields.ts, 用时).
 */
async function waitingTasks(db: AdminDb): Promise<AttentionItem[]> {
  const rows = await db
    .selectFrom('tasks')
    .select((eb) => [
      'tasks.task_id',
      'tasks.status',
      'tasks.reason_code',
      'tasks.title',
      'tasks.updated_at',
      'tasks.device_id',
      // tapped 提交订单 on its current authorization: the reason reads as after the submit (task-view.ts)
      eb
        .exists(
          eb
            .selectFrom('order_submissions as s')
            .select('s.id')
            .whereRef('s.authorization_id', '=', 'tasks.authorization_id')
            .where('s.abandoned_at', 'is', null),
        )
        .as('tapped'),
    ])
    .where('tasks.task_type', '=', 'purchase')
    .where('tasks.status', 'in', WAITING_STATUSES)
    .execute();
  return rows.map((r) => {
    const status = r.status as PurchaseStatus;
    return {
      kind: 'task',
      id: r.task_id,
      reason_code: r.reason_code ? canonicalReason(r.reason_code) : status,
      reason_zh: r.reason_code ? reasonInfo(r.reason_code, Boolean(r.tapped)).zh : STATUS_ZH[status],
      since: r.updated_at,
      title: r.title,
      device_id: r.device_id,
    };
  });
}

/**
 * The drafts of 顺运宝 order lines whose re-collected price rose above their cap (and, when the
 * minimum margin is set, below it): starting one as it is would stop at the phone's first gate or
 * buy at a loss. Worked out from the latest collect at each read, so a draft leaves the queue as
 * soon as the cap is raised, the price falls back, or it is started or canceled. `since` is the
 * later of the draft's last change and the collect that raised the price.
 */
async function repricedDrafts(db: AdminDb): Promise<AttentionItem[]> {
  const rows = await db
    .selectFrom('tasks')
    .innerJoin('syb_orders as o', 'o.syb_id', 'tasks.syb_id')
    .select([
      'tasks.task_id',
      'tasks.title',
      'tasks.updated_at',
      'tasks.pdd_goods_id',
      'tasks.pdd_options',
      'tasks.quantity',
      'tasks.max_total_price_cent',
      'o.price_twd_cent',
      'o.quantity as line_quantity',
    ])
    .where('tasks.task_type', '=', 'purchase')
    .where('tasks.status', '=', 'DRAFT')
    .execute();
  const flags = await draftPriceFlags(
    db,
    rows.map((r) => ({
      task_id: r.task_id,
      pdd_goods_id: r.pdd_goods_id,
      pdd_options: r.pdd_options,
      quantity: r.quantity ?? 0,
      max_total_price_cent: r.max_total_price_cent ?? 0,
      line_price_twd_cent: r.price_twd_cent,
      line_quantity: r.line_quantity,
    })),
  );
  return rows.flatMap((r): AttentionItem[] => {
    const flag = flags.get(r.task_id);
    if (!flag) return [];
    const since = flag.collected_at !== null && flag.collected_at > r.updated_at ? flag.collected_at : r.updated_at;
    return [
      {
        kind: 'task',
        id: r.task_id,
        reason_code: flag.code,
        reason_zh: flag.message,
        since,
        title: r.title,
        device_id: null,
      },
    ];
  });
}

/**
 * Started tasks no phone will take until a person acts (NO_PHONE_CAN_CLAIM: every phone paused,
 * held, 需处理, offline, low, or for a live one on an unreleased version): the wait is not silent.
 * They leave the queue as soon as a phone is free again or one takes them. `since` is the start.
 */
async function unclaimedTasks(db: AdminDb): Promise<AttentionItem[]> {
  const rows = await db
    .selectFrom('tasks')
    .select(['task_id', 'title', 'updated_at', 'execution_mode'])
    .where('task_type', '=', 'purchase')
    .where('status', '=', 'PENDING')
    .execute();
  if (rows.length === 0) return [];
  const phones = await phoneClaimStates(db);
  return rows.flatMap((r): AttentionItem[] => {
    const { warnings } = claimWarningsOf(phones, { status: 'PENDING', execution_mode: r.execution_mode });
    const stuck = warnings.find((w) => w.code === 'NO_PHONE_CAN_CLAIM');
    if (!stuck) return [];
    return [
      {
        kind: 'task',
        id: r.task_id,
        reason_code: stuck.code,
        reason_zh: stuck.message,
        since: r.updated_at,
        title: r.title,
        device_id: null,
      },
    ];
  });
}
