/**
 * The states of one collect run, the one vocabulary a collect task's `tasks.status` holds (the
 * CHECK of migrations/0010_catalog.ts), and how the operator reads them wherever a run is listed
 * (PDD 商品详情, and 采购任务 while runs are listed there). Lowercase, apart from the uppercase
 * purchase states (domain/purchase/status.ts) that share the column. A PDD goods' own
 * `collect_status` (domain/catalog.ts `CollectStatus`) says what the goods has, not how a run went.
 */
export const COLLECT_RUN_STATUSES = ['queued', 'collecting', 'succeeded', 'failed', 'rejected'] as const;
export type CollectRunStatus = (typeof COLLECT_RUN_STATUSES)[number];

export const COLLECT_RUN_STATUS_ZH = {
  queued: '等待手机领取',
  collecting: '采集中',
  succeeded: '采集成功',
  failed: '采集失败',
  rejected: '结果被拒绝',
} as const satisfies Record<CollectRunStatus, string>;

export function collectRunStatusZh(status: string): string | null {
  return Object.prototype.hasOwnProperty.call(COLLECT_RUN_STATUS_ZH, status)
    ? COLLECT_RUN_STATUS_ZH[status as CollectRunStatus]
    : null;
}

/**
 * The failures that reject what the phone sent (a result that does not parse, or another goods'):
 * the run is `rejected`, not `failed` (activities/admin/catalog.ts `saveCollectResult`), and the
 * collect workflow's `TaskStatus` search attribute says the same word as the row.
 */
const COLLECT_REJECTION_CODES: readonly string[] = ['COLLECT_RESULT_INVALID', 'COLLECT_GOODS_MISMATCH'];

/** The run status a collect's failure leaves in its row. */
export function collectFailureStatus(code: string): Extract<CollectRunStatus, 'failed' | 'rejected'> {
  return COLLECT_REJECTION_CODES.includes(code) ? 'rejected' : 'failed';
}
