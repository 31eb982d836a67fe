/**
 * The states of one collect run (admin/db/tables/catalog.ts `CollectTaskStatus`) in the
 * operator's words, wherever a run is listed (PDD 商品详情, and 采购任务 while runs are listed there).
 */
export const COLLECT_RUN_STATUS_ZH = {
  queued: '等待手机领取',
  collecting: '采集中',
  succeeded: '采集成功',
  failed: '采集失败',
  rejected: '结果被拒绝',
} as const satisfies Record<string, string>;

export function collectRunStatusZh(status: string): string | null {
  return Object.prototype.hasOwnProperty.call(COLLECT_RUN_STATUS_ZH, status)
    ? COLLECT_RUN_STATUS_ZH[status as keyof typeof COLLECT_RUN_STATUS_ZH]
    : null;
}
