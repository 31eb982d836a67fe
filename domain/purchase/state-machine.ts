import type { AuthorizationStatus } from './record-states';

/**
 * The purchase task's state machine, in one table: every state, what may follow it, what the
 * operator may ask in it, and how the product shows it. Everything else derives from this table —
 * the state list and its Chinese words (./status.ts), the admin's repair of a task whose workflow
 * is closed (admin/purchase/repair.ts), the task page's buttons and colours (ui/src/components/tasks),
 * the order lines a task holds (domain/syb.ts), the workflow's update validators and the API's
 * action routes. Adding a state is one row here; the DB's list of states cannot be derived, and
 * test/architecture/state-check.test.ts says which migration to write when it differs.
 * Pure (no I/O, no node imports), so the UI and the workflow bundle import it too.
 */

/**
 * What an operator can ask of a purchase task; each name is the task API's route
 * (`POST /api/tasks/:taskId/<action>`, `start` as `POST /api/tasks/start`). `start` and `edit`
 * act on a DRAFT in the admin; the others reach a running workflow as its updates
 * (domain/contracts/purchase-messages.ts), except `cancel` of a DRAFT, which has no workflow yet.
 */
export const OPERATOR_ACTIONS = ['start', 'edit', 'cancel', 'reset', 'mark-paid', 'resolve'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/** Colour family of a state on the operator's screens: what they must notice first. */
export type StatusTone = 'neutral' | 'active' | 'attention' | 'danger' | 'ok' | 'done';

/**
 * Who moves the task on: `draft` — nobody yet, it has no workflow; `running` — the workflow on
 * its own; `person` — the workflow waits for the operator (its last change is when it stopped);
 * `ended` — nothing, ever (terminal).
 */
export type Phase = 'draft' | 'running' | 'person' | 'ended';

interface StateRow<S extends string> {
  /** the state's name on every operator screen */
  zh: string;
  /** the operator's safe next step: no state may leave them stuck */
  nextStepZh: string;
  phase: Phase;
  tone: StatusTone;
  /** the states this one may move to; none exactly when the phase is `ended` */
  next: readonly S[];
  /** what the operator may ask in this state, in the order the task page shows it */
  actions: readonly OperatorAction[];
  /**
   * the 顺运宝 order line this task was drafted from is still being bought, or was bought: no
   * second draft is made for it (DB: uq_tasks_live_syb_line), and 订单 shows this task for it
   */
  holdsOrderLine: boolean;
  /** the task page shows the stop's reason beside the state */
  showsReason: boolean;
  /**
   * what the workflow's move into this state does to the task's authorization, unless that is
   * closed already (domain/purchase/record-states.ts); null leaves it as it is
   */
  authorizationBecomes: AuthorizationStatus | null;
}

/** Checks that every `next` names a row of the table itself. */
function machine<const T extends { [K in keyof T]: StateRow<Extract<keyof T, string>> }>(table: T): T {
  return table;
}

const MACHINE = machine({
  DRAFT: {
    zh: '草稿',
    nextStepZh: '可编辑、取消，或勾选后点击「开始采购」',
    phase: 'draft',
    tone: 'neutral',
    next: ['PENDING', 'CANCELED'],
    actions: ['start', 'edit', 'cancel'],
    holdsOrderLine: true,
    showsReason: false,
    authorizationBecomes: 'EXPIRED',
  },
  // back to DRAFT: the authorization expired before a phone was free, or an operator reset a stop;
  // NEEDS_MANUAL: the phone that came was refused before any work on it (a revoked device)
  PENDING: {
    zh: '待领取',
    nextStepZh: '已授权，等待空闲手机领取；授权到期未领取会自动退回草稿。可取消',
    phase: 'running',
    tone: 'active',
    next: ['CLAIMED', 'DRAFT', 'NEEDS_MANUAL', 'CANCELED'],
    actions: ['cancel'],
    holdsOrderLine: true,
    showsReason: false,
    authorizationBecomes: null,
  },
  CLAIMED: {
    zh: '已领取',
    nextStepZh: '手机已领取，即将开始操作。可取消',
    phase: 'running',
    tone: 'active',
    next: ['ORDERING', 'NEEDS_MANUAL', 'DRAFT', 'CANCELED'],
    actions: ['cancel'],
    holdsOrderLine: true,
    showsReason: false,
    authorizationBecomes: 'CLAIMED',
  },
  // cancel is refused once the fence was requested: the workflow knows that, not the state
  ORDERING: {
    zh: '下单中',
    nextStepZh: '手机正在选规格、核对价格；提交前仍可取消',
    phase: 'running',
    tone: 'active',
    next: ['NEEDS_MANUAL', 'DRY_RUN_PASSED', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'CANCELED'],
    actions: ['cancel'],
    holdsOrderLine: true,
    showsReason: false,
    authorizationBecomes: null,
  },
  // stopped before the tap: nothing was submitted, so cancel is safe even after a fence
  NEEDS_MANUAL: {
    zh: '需人工处理',
    nextStepZh: '提交前已安全停止，未下单。核查原因后「重置为草稿」重新授权，或取消',
    phase: 'person',
    tone: 'attention',
    next: ['DRAFT', 'CANCELED'],
    actions: ['reset', 'cancel'],
    holdsOrderLine: true,
    showsReason: true,
    authorizationBecomes: 'ABANDONED',
  },
  WAITING_PAYMENT: {
    zh: '待付款',
    nextStepZh: '订单已创建、未付款：请在拼多多手机应用里付款后点击「标记已付款」',
    phase: 'person',
    tone: 'attention',
    next: ['SUCCEEDED'],
    actions: ['mark-paid'],
    holdsOrderLine: true,
    showsReason: false,
    authorizationBecomes: 'CONSUMED',
  },
  RECONCILIATION_REQUIRED: {
    zh: '待核对',
    nextStepZh:
      '提交结果不明确，禁止重试：请在拼多多「待付款」订单中核对同一提交，再选择「已创建」（填订单号）或「未创建」',
    phase: 'person',
    tone: 'danger',
    next: ['WAITING_PAYMENT', 'FAILED'],
    actions: ['resolve'],
    holdsOrderLine: true,
    showsReason: true,
    authorizationBecomes: 'CONSUMED',
  },
  DRY_RUN_PASSED: {
    zh: '试运行通过',
    nextStepZh: '试运行通过：已到达最终提交面板，未点击提交。如需真实下单，请新建一个「真实下单」任务',
    phase: 'ended',
    tone: 'ok',
    next: [],
    actions: [],
    holdsOrderLine: false,
    showsReason: false,
    authorizationBecomes: 'CONSUMED',
  },
  SUCCEEDED: {
    zh: '已完成',
    nextStepZh: '已付款并完成核对',
    phase: 'ended',
    tone: 'ok',
    next: [],
    actions: [],
    holdsOrderLine: true,
    showsReason: false,
    authorizationBecomes: null,
  },
  FAILED: {
    zh: '失败',
    nextStepZh: '确认订单未创建或任务无法完成；如仍需购买请新建任务',
    phase: 'ended',
    tone: 'danger',
    next: [],
    actions: [],
    holdsOrderLine: false,
    showsReason: true,
    authorizationBecomes: null,
  },
  CANCELED: {
    zh: '已取消',
    nextStepZh: '已取消，不再执行',
    phase: 'ended',
    tone: 'done',
    next: [],
    actions: [],
    holdsOrderLine: false,
    showsReason: true,
    authorizationBecomes: 'ABANDONED',
  },
});

export type PurchaseStatus = keyof typeof MACHINE;
type Row = StateRow<PurchaseStatus>;

/** Every state, in the table's order (the order of the task list's status tabs). */
export const PURCHASE_STATUSES = Object.keys(MACHINE) as readonly PurchaseStatus[] as readonly [
  PurchaseStatus,
  ...PurchaseStatus[],
];

/** One column of the table, as a record by state. */
export function column<K extends keyof Row>(key: K): Readonly<Record<PurchaseStatus, Row[K]>> {
  return Object.fromEntries(PURCHASE_STATUSES.map((s) => [s, (MACHINE[s] as Row)[key]])) as Record<
    PurchaseStatus,
    Row[K]
  >;
}

/** The states whose column `key` holds, in the table's order. */
export function statesWhere(key: 'holdsOrderLine' | 'showsReason'): readonly PurchaseStatus[] {
  return PURCHASE_STATUSES.filter((s) => (MACHINE[s] as Row)[key]);
}

export function isPurchaseStatus(s: string): s is PurchaseStatus {
  return Object.prototype.hasOwnProperty.call(MACHINE, s);
}

const UNKNOWN: Row = {
  zh: '',
  nextStepZh: '',
  phase: 'ended',
  tone: 'neutral',
  next: [],
  actions: [],
  holdsOrderLine: false,
  showsReason: false,
  authorizationBecomes: null,
};

/** A status read from storage is a string; one this table does not know allows nothing. */
function rule(status: string): Row {
  return isPurchaseStatus(status) ? MACHINE[status] : UNKNOWN;
}

export function canTransition(from: PurchaseStatus, to: PurchaseStatus): boolean {
  return rule(from).next.includes(to);
}

/** Nothing more happens to a task in a terminal state. */
export function isTerminal(status: PurchaseStatus): boolean {
  return rule(status).next.length === 0;
}

/** Who moves the task on from here (see Phase); a status the table does not know is `ended`. */
export function phaseOf(status: string): Phase {
  return rule(status).phase;
}

/** The operator actions a task in this state offers, in the order the table lists them. */
export function allowedActions(status: PurchaseStatus): readonly OperatorAction[] {
  return rule(status).actions;
}

export function allowsAction(status: PurchaseStatus, action: OperatorAction): boolean {
  return rule(status).actions.includes(action);
}
