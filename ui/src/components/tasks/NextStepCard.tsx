import { For, Show, type JSX } from 'solid-js';
import type { TaskView } from '../../../../domain/purchase/views';
import { allowsAction, statesWhere } from '../../../../domain/purchase/state-machine';
import { navigate } from '../../router';
import ActionButton from '../ActionButton';
import StartOne from './StartOne';
import StopDetail from './StopDetail';
import TaskActions from './TaskActions';
import type { TaskDetail } from './task-detail';

/** Reasons matter most where the operator has to decide something (domain/purchase/state-machine.ts). */
const SHOW_REASON: ReadonlySet<string> = new Set(statesWhere('showsReason'));

/** 当前状态 · 下一步: what happens next, why it stopped, and what the operator can do now. */
export default function NextStepCard(props: { task: TaskView; detail: TaskDetail }): JSX.Element {
  const t = (): TaskView => props.task;
  const d = (): TaskDetail => props.detail;
  return (
    <div class={`card tk-next tk-next-${t().status}`} data-testid="next-step">
      <div class="tk-next-label">当前状态：{t().status_zh} · 下一步</div>
      <div class="tk-next-text" data-testid="next-step-text">
        {t().next_step_zh}
      </div>
      <Show when={SHOW_REASON.has(t().status) && t().reason_zh !== null}>
        <ReasonBox task={t()} />
      </Show>
      <DraftWarnings warnings={t().warnings} />
      <Show when={allowsAction(t().status, 'start')}>
        <div class="tk-actions">
          <StartOne task={t()} onDone={d().load} />
        </div>
      </Show>
      <Show when={t().status === 'DRY_RUN_PASSED'}>
        <div class="tk-actions">
          <ActionButton
            action={{ busy: d().busy, run: d().copyLive }}
            class="btn btn-primary"
            testid="action-copy-live"
          >
            复制为真实下单
          </ActionButton>
          <span class="muted">以相同商品、规格、数量和最高总价新建一份真实下单草稿</span>
        </div>
      </Show>
      <Show when={d().superseded()}>
        <p class="notice" role="status" data-testid="action-superseded">
          {d().superseded()}
        </p>
      </Show>
      <TaskActions
        status={t().status}
        workflowClosed={t().workflow_closed ?? null}
        pddOrderNo={t().pdd_order_no ?? t().submission?.pdd_order_no ?? null}
        busy={d().busy()}
        error={d().actionError()}
        onAction={d().act}
        onEdit={() => navigate(`/tasks/${encodeURIComponent(t().task_id)}/edit`)}
      />
    </div>
  );
}

/** 原因, what the phone saw, and 处理建议. */
function ReasonBox(props: { task: TaskView }): JSX.Element {
  return (
    <div class="tk-reason-box" data-testid="task-reason" data-reason={props.task.reason_code ?? ''}>
      <div>
        <strong>原因：</strong>
        {props.task.reason_zh}
      </div>
      <StopDetail task={props.task} />
      <Show when={props.task.reason_next_zh}>
        {(n) => (
          <div>
            <strong>处理建议：</strong>
            {n()}
          </div>
        )}
      </Show>
    </div>
  );
}

/** 草稿提示: what the admin noticed about a draft before it is started. */
function DraftWarnings(props: { warnings: TaskView['warnings'] }): JSX.Element {
  return (
    <Show when={props.warnings.length > 0}>
      <div class="tk-draft-warnings" role="note" data-testid="draft-warnings">
        <strong>草稿提示：</strong>
        <ul>
          <For each={props.warnings}>
            {(w) => (
              <li data-testid="draft-warning" data-code={w.code}>
                {w.message}
              </li>
            )}
          </For>
        </ul>
      </div>
    </Show>
  );
}
