import { For, Show, type JSX } from 'solid-js';
import type { TaskView } from '../../../../domain/purchase/views';
import { allowsAction, statesWhere } from '../../../../domain/purchase/state-machine';
import { claimBlockZh } from '../../../../domain/claimability';
import { hrefFor, navigate } from '../../router';
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
      <DraftWarnings warnings={t().warnings} draft={t().status === 'DRAFT'} />
      <WaitingFor task={t()} />
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
      <Show when={props.task.reason_code === 'APP_VERSION_NOT_RELEASED'}>
        <VersionLink />
      </Show>
    </div>
  );
}

/** Where a PDD version is released: 设备 → 拼多多版本. */
const VersionLink = (): JSX.Element => (
  <div>
    <a href={hrefFor('/devices')} data-testid="app-version-link">
      前往「设备 → 拼多多版本」
    </a>
  </div>
);

/** 草稿提示 (or, once started, 提示): what the admin noticed about the task before a phone acts on it. */
function DraftWarnings(props: { warnings: TaskView['warnings']; draft: boolean }): JSX.Element {
  return (
    <Show when={props.warnings.length > 0}>
      <div class="tk-draft-warnings" role="note" data-testid="draft-warnings">
        <strong>{props.draft ? '草稿提示：' : '提示：'}</strong>
        <ul>
          <For each={props.warnings}>
            {(w) => (
              <li data-testid="draft-warning" data-code={w.code}>
                {w.message}
                <Show when={w.code === 'APP_VERSION_NOT_RELEASED'}>
                  <VersionLink />
                </Show>
              </li>
            )}
          </For>
        </ul>
      </div>
    </Show>
  );
}

/** 等待手机: a task no free phone takes says which phones there are and why none takes it. */
function WaitingFor(props: { task: TaskView }): JSX.Element {
  return (
    <Show when={props.task.status === 'PENDING' && props.task.waiting_for.length > 0}>
      <div class="tk-waiting" data-testid="waiting-for">
        <strong>没有空闲的手机：</strong>
        <ul>
          <For each={props.task.waiting_for}>
            {(w) => (
              <li data-testid="waiting-phone" data-device-id={w.device_id} data-reason={w.reason_code}>
                {w.display_name}：{claimBlockZh(w.reason_code)}
              </li>
            )}
          </For>
        </ul>
      </div>
    </Show>
  );
}
