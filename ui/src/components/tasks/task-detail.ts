import { createSignal } from 'solid-js';
import type { TaskView } from '../../../../domain/purchase/views';
import { cancelTask, copyTaskAsLive, getTask, markTaskPaid, resetTask, resolveTask } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction } from '../../lib/action';
import { createPoll } from '../../lib/poll';
import { navigate } from '../../router';
import type { TaskAction } from './actions';
import { isTerminal, statusZh } from './types';

const TASK_POLL_MS = 3_000;

type DetailAction = Exclude<TaskAction, 'edit'>;

/** The call behind each button; every one answers with the task as it now is, shown at once. */
const ACTION_CALL: Readonly<Record<DetailAction, (taskId: string, pddOrderNo: string) => Promise<TaskView>>> = {
  cancel: cancelTask,
  reset: resetTask,
  'mark-paid': markTaskPaid,
  'resolve-created': (taskId, pddOrderNo) => resolveTask(taskId, { outcome: 'created', pdd_order_no: pddOrderNo }),
  'resolve-not-created': (taskId) => resolveTask(taskId, { outcome: 'not_created' }),
};

/**
 * One task as the detail page shows it: polled until it ends (paused while an action runs), the
 * operator's actions on it and 复制为真实下单.
 */
export function createTaskDetail(taskId: string) {
  const [task, setTask] = createSignal<TaskView | null>(null);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  /** the workflow got there first: the operator's answer changed nothing (it is audited as such) */
  const [superseded, setSuperseded] = createSignal<string | null>(null);

  const load = async (): Promise<void> => {
    try {
      setTask(await getTask(taskId));
      setLoadError(null);
    } catch (err) {
      setLoadError(errorText(err));
    }
  };
  // The server's ACTION_NOT_ALLOWED message is already Chinese and says why (e.g. fenced); a
  // refused action means the task moved on, so the page reads it again.
  const action = createAction((call: () => Promise<void>) => call(), {
    failure: async (_err, text) => {
      await load();
      return text;
    },
  });
  createPoll(load, TASK_POLL_MS, { immediate: true, while: () => !action.busy() && !isTerminal(task()?.status ?? '') });

  const act = (which: DetailAction, pddOrderNo?: string): Promise<unknown> =>
    action.run(async () => {
      setSuperseded(null);
      const answer = (await ACTION_CALL[which](taskId, pddOrderNo ?? '')) as TaskView & { result?: string };
      setTask(answer);
      if (answer.result === 'superseded')
        setSuperseded(
          `工作流已先一步核对到订单，任务现为「${statusZh(answer.status)}」：你的录入未被采用，已记入审计日志`,
        );
    });

  // 复制为真实下单: a new live draft; the list is where drafts are started.
  const copyLive = (): Promise<unknown> =>
    action.run(async () => {
      const created = await copyTaskAsLive(taskId);
      // the list opens with the copy picked, one 开始采购 away (its own live warning still asks)
      const warned = created.warnings.length > 0 ? `&warnings=${created.warnings.length}` : '';
      navigate(`/tasks?created=${encodeURIComponent(created.task_id)}${warned}&pick=1`);
    });

  return { task, loadError, busy: action.busy, actionError: action.error, superseded, load, act, copyLive };
}
export type TaskDetail = ReturnType<typeof createTaskDetail>;
