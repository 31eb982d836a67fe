import { repairActions } from '../../../../domain/purchase/repair-rules';
import { allowedActions as machineActions, type OperatorAction } from '../../../../domain/purchase/state-machine';
import type { PurchaseStatus } from './types';

/** A button on the task page; `resolve` is two buttons, one per outcome. */
export type TaskAction = 'edit' | 'cancel' | 'reset' | 'mark-paid' | 'resolve-created' | 'resolve-not-created';

/**
 * The buttons of each operator action the state machine offers. `start` is no button here: the
 * list starts drafts, several at once. Cancel is offered up to ORDERING because only the server
 * knows whether the fence has been passed; when it has, its refusal is shown as is.
 */
const BUTTONS: Readonly<Record<OperatorAction, readonly TaskAction[]>> = {
  start: [],
  edit: ['edit'],
  cancel: ['cancel'],
  reset: ['reset'],
  'mark-paid': ['mark-paid'],
  resolve: ['resolve-created', 'resolve-not-created'],
};

/**
 * The buttons a task in this state shows: the server's state table, never a copy of it. A task
 * whose workflow was closed by hand (the task view's `workflow_closed`) shows the answers the
 * admin's repair accepts from its state (domain/purchase/repair-rules.ts).
 */
export function allowedActions(status: PurchaseStatus, workflowClosed = false): readonly TaskAction[] {
  const repair = workflowClosed ? repairActions(status) : [];
  return repair.length > 0 ? repair : machineActions(status).flatMap((a) => BUTTONS[a]);
}

/** What the page says about a closed workflow, next to the repair buttons. */
export function closedWorkflowText(): string {
  return '任务的工作流已结束（多为手工终止或超时），任务不会再自动推进。请先在拼多多核对订单再录入结果：已获准点击「提交订单」的任务只能录入「已创建（填订单号）」或「未创建」（任务失败，不会再次下单）；还没到提交一步的任务选「未创建」会回到草稿。';
}

export const ACTION_LABEL: Readonly<Record<TaskAction, string>> = {
  edit: '编辑',
  cancel: '取消',
  reset: '重置为草稿',
  'mark-paid': '标记已付款',
  'resolve-created': '已创建（填订单号）',
  'resolve-not-created': '未创建',
};

/** What each confirmation says; edit opens the form and resolve-created its own dialog. */
export const CONFIRM_TEXT: Readonly<
  Record<Exclude<TaskAction, 'edit' | 'resolve-created'>, { title: string; message: string; danger: boolean }>
> = {
  cancel: { title: '取消任务', message: '取消后任务不再执行。已经点击提交的任务，服务端会拒绝取消。', danger: true },
  reset: { title: '重置为草稿', message: '任务回到草稿，旧的授权作废；需要再次勾选并开始采购。', danger: false },
  'mark-paid': { title: '标记已付款', message: '请确认已在拼多多手机应用里为这个订单完成付款。', danger: false },
  'resolve-not-created': {
    title: '核对结果：未创建',
    message: '确认在拼多多「待付款」和全部订单中都没有这次提交创建的订单？任务将标记为失败，不会重试。',
    danger: true,
  },
};
