import { ApplicationFailure, condition, deprecatePatch, setHandler } from '@temporalio/workflow';
import { allowsAction } from '../../domain/purchase/state-machine';
import type { OperatorAnswer, OperatorRef, ResolveReconciliationInput } from '../../domain/purchase/workflow-types';
import { answerHoldsClaim } from '../device-claim';
import { operatorAdmin, type AdminApi } from './activities';
import { describe, isLasting, who } from './failures';
import {
  cancelUpdate,
  markPaidUpdate,
  resetUpdate,
  resolveReconciliationUpdate,
  stateQuery,
} from '../../domain/contracts/purchase-messages';
import type { PurchaseRun } from './run';

// ——— the operator: the state query and the updates, whose validators ask the state machine ———

export function listenToOperator(run: PurchaseRun): void {
  const { state } = run;
  setHandler(stateQuery, () => state);
  answerHoldsClaim(() => (run.released ? null : run.claim));
  listenToCancel(run);
  setHandler(
    resetUpdate,
    async (op): Promise<OperatorAnswer | null> => {
      deprecatePatch('operator-writes-in-update');
      const answer = await writeForOperator(run, (via) => run.moveTo('DRAFT', { ...who(op), reasonCode: null }, via));
      run.written.reset = true;
      run.resetBy = op;
      return answer;
    },
    {
      validator: (_op: OperatorRef) => {
        if (!allowsAction(state.status, 'reset') || run.resetBy)
          throw new Error(`只有「需人工处理」的任务可以重置为草稿（当前 ${state.status}）`);
        run.refuseWhileBusy();
      },
    },
  );
  setHandler(
    markPaidUpdate,
    async (op): Promise<OperatorAnswer | null> => {
      deprecatePatch('operator-writes-in-update');
      const answer = await writeForOperator(run, (via) => run.moveTo('SUCCEEDED', who(op), via));
      run.written.paid = true;
      run.paidBy = op;
      return answer;
    },
    {
      validator: (_op: OperatorRef) => {
        if (!allowsAction(state.status, 'mark-paid') || run.paidBy)
          throw new Error(`只有「待付款」的任务可以标记已付款（当前 ${state.status}）`);
        run.refuseWhileBusy();
      },
    },
  );
  setHandler(
    resolveReconciliationUpdate,
    async (r): Promise<OperatorAnswer | null> => {
      deprecatePatch('operator-writes-in-update');
      return await resolveNow(run, r);
    },
    {
      validator: (r) => {
        if (!allowsAction(state.status, 'resolve') || run.resolution)
          throw new Error(`只有「待核对」的任务可以录入核对结果（当前 ${state.status}）`);
        if (r.outcome === 'created' && !r.orderNo) throw new Error('请填写拼多多订单号');
        run.refuseWhileBusy();
      },
    },
  );
}

/** 取消: before the fence, or in a stop after a fence that tapped nothing. */
function listenToCancel(run: PurchaseRun): void {
  const { state } = run;
  setHandler(
    cancelUpdate,
    async ({ actor, requestId }): Promise<OperatorAnswer> => {
      run.canceledBy = actor;
      run.phoneScope.cancel();
      await run.moveTo('CANCELED', {
        reasonCode: 'CANCELED_BY_OPERATOR',
        actor,
        ...(requestId ? { requestId } : {}),
      });
      return { result: 'applied', status: 'CANCELED' };
    },
    {
      validator: (_op: OperatorRef) => {
        // After the fence only a stop may be canceled: NEEDS_MANUAL after it means the fence
        // refused or submitOnce never started — nothing was tapped (domain/purchase/state-machine.ts).
        if (run.fenceRequested && state.status !== 'NEEDS_MANUAL')
          throw new Error('提交围栏已建立，不能取消：只能核对同一提交');
        // a task back in DRAFT has left this workflow: its cancel is the admin's
        if (state.status === 'DRAFT' || !allowsAction(state.status, 'cancel') || run.canceledBy)
          throw new Error(`当前状态（${state.status}）不能取消`);
        run.refuseWhileBusy();
      },
    },
  );
}

/**
 * The operator's change, written inside the update: the answer is what was written, and a write
 * that fails for good fails the update with its reason — the task stays where it was and the
 * operator may ask again (a new request; the failed one keeps its answer).
 */
async function writeForOperator(run: PurchaseRun, write: (via: AdminApi) => Promise<void>): Promise<OperatorAnswer> {
  const { state } = run;
  const before = { status: state.status, reasonCode: state.reasonCode, orderNo: state.orderNo };
  run.operatorBusy = true;
  try {
    await write(operatorAdmin);
    return { result: 'applied', status: state.status };
  } catch (err) {
    if (!isLasting(err)) throw err;
    Object.assign(state, before);
    throw ApplicationFailure.nonRetryable(
      `未能写入，任务仍为 ${state.status}，请重试：${describe(err)}`,
      'OPERATOR_WRITE_FAILED',
    );
  } finally {
    run.operatorBusy = false;
  }
}

/**
 * 录入核对结果 waits for the workflow's own order check: when that found the one matching order
 * first, the operator's answer is superseded (it changed nothing; the admin audits it as such).
 */
async function resolveNow(run: PurchaseRun, r: OperatorRef & ResolveReconciliationInput): Promise<OperatorAnswer> {
  run.operatorBusy = true;
  try {
    await condition(() => run.reconciling?.decided === true);
  } finally {
    run.operatorBusy = false;
  }
  if (run.state.status !== 'RECONCILIATION_REQUIRED') return { result: 'superseded', status: run.state.status };
  const { submissionId } = run.reconciling!;
  const answer = await writeForOperator(run, async (via) => {
    await via.recordSubmissionOutcome({
      submissionId,
      status: 'MANUAL_RESOLVED',
      orderNo: r.outcome === 'created' ? r.orderNo : null,
    });
    if (r.outcome === 'not_created') await run.moveTo('FAILED', who(r), via);
    else await run.moveTo('WAITING_PAYMENT', { ...who(r), orderNo: r.orderNo }, via);
  });
  run.written.resolvedTo = run.state.status;
  run.resolution = r;
  return answer;
}
