import { createSignal, For, Show, type JSX } from 'solid-js';
import { authorizationStatusZh } from '../../../domain/purchase-labels';
import type { TaskView } from '../../../domain/purchase/views';
import { allowsAction, statesWhere } from '../../../domain/purchase/state-machine';
import { cancelTask, copyTaskAsLive, getTask, markTaskPaid, resetTask, resolveTask } from '../api/endpoints';
import type { TaskAction } from '../components/tasks/actions';
import { stopDetailZh } from '../components/tasks/details';
import EvidenceGallery from '../components/tasks/EvidenceGallery';
import RawDetail from '../components/tasks/RawDetail';
import GatesPanel from '../components/tasks/GatesPanel';
import StartOne from '../components/tasks/StartOne';
import { durationText } from '../lib/time';
import StatusBadge from '../components/StatusBadge';
import TaskActions from '../components/tasks/TaskActions';
import '../components/tasks/tasks.css';
import { temporalWorkflowUrl } from '../components/tasks/temporal';
import Timeline from '../components/tasks/Timeline';
import { isTerminal, modeZh, optionsText, statusZh } from '../components/tasks/types';
import { errorText } from '../errors';
import { formatYuan } from '../lib/money';
import { createPoll } from '../lib/poll';
import { formatTime } from '../lib/time';
import { hrefFor, navigate } from '../router';
import DeviceName from '../components/devices/DeviceName';

const TASK_POLL_MS = 3_000;

/** The call behind each button; every one answers with the task as it now is, shown at once. */
const ACTION_CALL: Readonly<
  Record<Exclude<TaskAction, 'edit'>, (taskId: string, pddOrderNo: string) => Promise<TaskView>>
> = {
  cancel: cancelTask,
  reset: resetTask,
  'mark-paid': markTaskPaid,
  'resolve-created': (taskId, pddOrderNo) => resolveTask(taskId, { outcome: 'created', pdd_order_no: pddOrderNo }),
  'resolve-not-created': (taskId) => resolveTask(taskId, { outcome: 'not_created' }),
};

/** Reasons matter most where the operator has to decide something (domain/purchase/state-machine.ts). */
const SHOW_REASON: ReadonlySet<string> = new Set(statesWhere('showsReason'));

export default function TaskDetailPage(props: { taskId: string }): JSX.Element {
  const [task, setTask] = createSignal<TaskView | null>(null);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [actionError, setActionError] = createSignal<string | null>(null);
  /** the workflow got there first: the operator's answer changed nothing (it is audited as such) */
  const [superseded, setSuperseded] = createSignal<string | null>(null);

  const load = async (): Promise<void> => {
    try {
      setTask(await getTask(props.taskId));
      setLoadError(null);
    } catch (err) {
      setLoadError(errorText(err));
    }
  };
  createPoll(load, TASK_POLL_MS, { immediate: true, while: () => !busy() && !isTerminal(task()?.status ?? '') });

  const act = async (action: Exclude<TaskAction, 'edit'>, pddOrderNo?: string): Promise<void> => {
    setBusy(true);
    setActionError(null);
    setSuperseded(null);
    try {
      const answer = (await ACTION_CALL[action](props.taskId, pddOrderNo ?? '')) as TaskView & { result?: string };
      setTask(answer);
      if (answer.result === 'superseded')
        setSuperseded(
          `工作流已先一步核对到订单，任务现为「${statusZh(answer.status)}」：你的录入未被采用，已记入审计日志`,
        );
    } catch (err) {
      // The server's ACTION_NOT_ALLOWED message is already Chinese and says why (e.g. fenced).
      setActionError(errorText(err));
      await load();
    } finally {
      setBusy(false);
    }
  };

  // 复制为真实下单: a new live draft; the list is where drafts are started.
  const copyLive = async (): Promise<void> => {
    setBusy(true);
    setActionError(null);
    try {
      const created = await copyTaskAsLive(props.taskId);
      // the list opens with the copy picked, one 开始采购 away (its own live warning still asks)
      navigate(`/tasks?created=${encodeURIComponent(created.task_id)}&pick=1`);
    } catch (err) {
      setActionError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="page" data-testid="page-task-detail" data-task-id={props.taskId}>
      <p>
        <a href={hrefFor('/tasks')} data-testid="back-to-tasks">
          ← 返回采购任务
        </a>
      </p>
      <Show when={loadError() !== null && task() === null}>
        <div class="card error-card" role="alert" data-testid="task-load-error">
          <p>
            无法加载任务 {props.taskId}：{loadError()}
          </p>
          <button type="button" class="btn" onClick={() => void load()}>
            重试
          </button>
        </div>
      </Show>
      <Show
        when={task()}
        fallback={
          <Show when={loadError() === null}>
            <p class="muted">正在加载…</p>
          </Show>
        }
      >
        {(t) => (
          <>
            <div class="tk-head">
              <div>
                <h1 class="page-title">
                  采购任务{' '}
                  <span class="tk-mono" data-testid="task-id">
                    {t().task_id}
                  </span>
                </h1>
                <p class="page-summary">{t().title ?? t().pdd_goods_url}</p>
              </div>
              <StatusBadge status={t().status} label={t().status_zh} />
            </div>

            <div class={`card tk-next tk-next-${t().status}`} data-testid="next-step">
              <div class="tk-next-label">当前状态：{t().status_zh} · 下一步</div>
              <div class="tk-next-text" data-testid="next-step-text">
                {t().next_step_zh}
              </div>
              <Show when={SHOW_REASON.has(t().status) && t().reason_zh !== null}>
                <div class="tk-reason-box" data-testid="task-reason" data-reason={t().reason_code ?? ''}>
                  <div>
                    <strong>原因：</strong>
                    {t().reason_zh}
                  </div>
                  <StopDetail task={t()} />
                  <Show when={t().reason_next_zh}>
                    {(n) => (
                      <div>
                        <strong>处理建议：</strong>
                        {n()}
                      </div>
                    )}
                  </Show>
                </div>
              </Show>
              <Show when={t().warnings.length > 0}>
                <div class="tk-draft-warnings" role="note" data-testid="draft-warnings">
                  <strong>草稿提示：</strong>
                  <ul>
                    <For each={t().warnings}>
                      {(w) => (
                        <li data-testid="draft-warning" data-code={w.code}>
                          {w.message}
                        </li>
                      )}
                    </For>
                  </ul>
                </div>
              </Show>
              <Show when={allowsAction(t().status, 'start')}>
                <div class="tk-actions">
                  <StartOne task={t()} onDone={load} />
                </div>
              </Show>
              <Show when={t().status === 'DRY_RUN_PASSED'}>
                <div class="tk-actions">
                  <button
                    type="button"
                    class="btn btn-primary"
                    data-testid="action-copy-live"
                    disabled={busy()}
                    onClick={() => void copyLive()}
                  >
                    复制为真实下单
                  </button>
                  <span class="muted">以相同商品、规格、数量和最高总价新建一份真实下单草稿</span>
                </div>
              </Show>
              <Show when={superseded()}>
                <p class="notice" role="status" data-testid="action-superseded">
                  {superseded()}
                </p>
              </Show>
              <TaskActions
                status={t().status}
                workflowClosed={t().workflow_closed ?? null}
                pddOrderNo={t().pdd_order_no ?? t().submission?.pdd_order_no ?? null}
                busy={busy()}
                error={actionError()}
                onAction={act}
                onEdit={() => navigate(`/tasks/${encodeURIComponent(props.taskId)}/edit`)}
              />
            </div>

            <div class="card tk-section">
              <dl class="tk-facts" data-testid="task-facts">
                <dt>商品链接</dt>
                <dd>
                  <a href={t().pdd_goods_url} target="_blank" rel="noopener noreferrer">
                    {t().pdd_goods_url}
                  </a>
                </dd>
                <dt>规格</dt>
                <dd data-testid="task-options">{optionsText(t().pdd_options)}</dd>
                <dt>数量</dt>
                <dd>{t().quantity}</dd>
                <dt>最高总价</dt>
                <dd data-testid="task-cap">{formatYuan(t().max_total_price_cent)}</dd>
                <dt>执行模式</dt>
                <dd data-testid="task-mode" classList={{ 'tk-live': t().execution_mode === 'live' }}>
                  {modeZh(t().execution_mode)}
                </dd>
                <dt>拼多多订单号</dt>
                <dd data-testid="task-pdd-order-no">{t().pdd_order_no ?? t().submission?.pdd_order_no ?? '—'}</dd>
                <Show when={t().syb_order_no}>
                  {(no) => (
                    <>
                      <dt>顺运宝订单号</dt>
                      <dd data-testid="task-syb-order-no">{no()}</dd>
                    </>
                  )}
                </Show>
                <dt>设备</dt>
                <dd data-testid="task-device">
                  <Show when={t().device_id} fallback="—">
                    {(d) => (
                      <a href={hrefFor('/devices')}>
                        <DeviceName deviceId={d()} name={t().device_name} />
                      </a>
                    )}
                  </Show>
                </dd>
                <dt>授权</dt>
                <dd>
                  <Show when={t().authorization} fallback="—">
                    {(a) => (
                      <span data-testid="task-authorization" data-status={a().status}>
                        {authorizationStatusZh(a().status) ?? '未知状态'} · 到期 {formatTime(a().expires_at)}
                      </span>
                    )}
                  </Show>
                </dd>
                <dt>用时</dt>
                <dd data-testid="task-duration">{durationText(t())}</dd>
                <dt>工作流</dt>
                <dd>
                  <Show when={t().workflow_id} fallback="—">
                    {(w) => (
                      <details class="tk-raw-detail" data-testid="workflow-detail">
                        <summary class="muted">技术详情</summary>
                        <a
                          href={temporalWorkflowUrl(w())}
                          target="_blank"
                          rel="noopener noreferrer"
                          data-testid="workflow-link"
                          class="tk-mono"
                        >
                          {w()}
                        </a>
                      </details>
                    )}
                  </Show>
                </dd>
                <dt>创建 / 更新</dt>
                <dd>
                  {formatTime(t().created_at)} / {formatTime(t().updated_at)}
                </dd>
              </dl>
            </div>

            <GatesPanel gates={t().gates} quantity={t().quantity} capCents={t().max_total_price_cent} />
            <EvidenceGallery evidence={t().evidence} />
            <Timeline entries={t().timeline} />
          </>
        )}
      </Show>
    </section>
  );
}

/** What the phone saw when it stopped, in Chinese; an unrecognised detail only behind 技术详情. */
function StopDetail(props: { task: TaskView }): JSX.Element {
  const raw = (): string | null => props.task.attempt?.failure_detail ?? null;
  const zh = (): string | null =>
    stopDetailZh(
      {
        reasonCode: props.task.reason_code,
        gates: props.task.gates,
        quantity: props.task.quantity,
        capCent: props.task.max_total_price_cent,
      },
      raw(),
    );
  return (
    <Show when={zh()} fallback={<RawDetail detail={raw()} />}>
      {(text) => (
        <div>
          <strong>详情：</strong>
          <span data-testid="task-reason-detail">{text()}</span>
        </div>
      )}
    </Show>
  );
}
