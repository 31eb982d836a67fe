/**
 * Purchase task states; what may follow what is domain/purchase/state-machine.ts. WAITING_PAYMENT is not success:
 * a person still has to pay in the PDD app and mark the task paid.
 */
export const PURCHASE_STATUSES = [
  'DRAFT',
  'PENDING',
  'CLAIMED',
  'ORDERING',
  'NEEDS_MANUAL',
  'WAITING_PAYMENT',
  'RECONCILIATION_REQUIRED',
  'DRY_RUN_PASSED',
  'SUCCEEDED',
  'FAILED',
  'CANCELED',
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export const EXECUTION_MODES = ['dry_run', 'live'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

/** The operator's safe next step in every state: no state may leave them stuck. */
export const NEXT_STEP_ZH: Record<PurchaseStatus, string> = {
  DRAFT: '可编辑、取消，或勾选后点击「开始采购」',
  PENDING: '已授权，等待空闲手机领取；授权到期未领取会自动退回草稿。可取消',
  CLAIMED: '手机已领取，即将开始操作。可取消',
  ORDERING: '手机正在选规格、核对价格；提交前仍可取消',
  NEEDS_MANUAL: '提交前已安全停止，未下单。核查原因后「重置为草稿」重新授权，或取消',
  WAITING_PAYMENT: '订单已创建、未付款：请在拼多多手机应用里付款后点击「标记已付款」',
  RECONCILIATION_REQUIRED:
    '提交结果不明确，禁止重试：请在拼多多「待付款」订单中核对同一提交，再选择「已创建」（填订单号）或「未创建」',
  DRY_RUN_PASSED: '试运行通过：已到达最终提交面板，未点击提交。如需真实下单，请新建一个「真实下单」任务',
  SUCCEEDED: '已付款并完成核对',
  FAILED: '确认订单未创建或任务无法完成；如仍需购买请新建任务',
  CANCELED: '已取消，不再执行',
};

export const STATUS_ZH: Record<PurchaseStatus, string> = {
  DRAFT: '草稿',
  PENDING: '待领取',
  CLAIMED: '已领取',
  ORDERING: '下单中',
  NEEDS_MANUAL: '需人工处理',
  WAITING_PAYMENT: '待付款',
  RECONCILIATION_REQUIRED: '待核对',
  DRY_RUN_PASSED: '试运行通过',
  SUCCEEDED: '已完成',
  FAILED: '失败',
  CANCELED: '已取消',
};
