import { Show, type JSX } from 'solid-js';
import { hrefFor } from '../../router';
import { formatYuan } from '../../lib/money';
import { durationText, formatTime } from '../../lib/time';
import StatusBadge from '../StatusBadge';
import { DEFAULT_PRIORITY, priorityZh } from './priority';
import { reasonZh } from './reasons';
import { awaitsFence, isTerminal, modeZh, optionsText, type TaskListItem } from './types';

interface Props {
  task: TaskListItem;
  selected: boolean;
  onToggle: (selected: boolean) => void;
  /** the release gate's warning (no phone could submit a live purchase today); null: none */
  liveWarning: string | null;
}

/** In place of the hide box of a finished task that placed an order: why it has none. */
const HideLocked = (): JSX.Element => (
  <span class="muted" data-testid="task-hide-locked" title="已在拼多多下单的任务不能隐藏：账目须与实际订单一致">
    已下单
  </span>
);

/**
 * Drafts are picked to start, finished tasks to hide; nothing else can be picked. A task with a
 * PDD order is never hidden (the admin refuses it too, also one whose number was not read).
 */
function pickableAs(t: TaskListItem): 'start' | 'hide' | null {
  if (t.status === 'DRAFT') return 'start';
  return isTerminal(t.status) && t.removed_at === null && t.pdd_order_no === null ? 'hide' : null;
}

/** 模式, and on a live task before 提交订单 the release gate's mark when no phone could submit it today. */
function ModeCell(props: { task: TaskListItem; liveWarning: string | null }): JSX.Element {
  return (
    <td>
      <span classList={{ 'tk-live': props.task.execution_mode === 'live' }}>{modeZh(props.task.execution_mode)}</span>
      <Show when={props.liveWarning !== null && awaitsFence(props.task)}>
        <span
          class="tk-live-gate"
          data-testid="task-live-warning"
          data-code="APP_VERSION_NOT_RELEASED"
          title={props.liveWarning ?? ''}
        >
          版本未发布
        </span>
      </Show>
    </td>
  );
}

export default function TaskRow(props: Props): JSX.Element {
  const t = (): TaskListItem => props.task;
  const pickable = (): 'start' | 'hide' | null => pickableAs(t());
  return (
    <tr
      data-testid="task-row"
      data-task-id={t().task_id}
      data-status={t().status}
      data-hidden={t().removed_at !== null ? 'true' : 'false'}
      classList={{ selected: props.selected, 'tk-row-hidden': t().removed_at !== null }}
    >
      <td class="tk-check">
        <Show when={pickable()} keyed>
          {(kind) => (
            <input
              type="checkbox"
              aria-label={`${kind === 'start' ? '选择' : '选择隐藏'}任务 ${t().task_id}`}
              data-testid={kind === 'start' ? 'task-select' : 'task-select-hide'}
              checked={props.selected}
              onChange={(e) => props.onToggle(e.currentTarget.checked)}
            />
          )}
        </Show>
        <Show when={isTerminal(t().status) && t().pdd_order_no !== null}>
          <HideLocked />
        </Show>
      </td>
      <td class="tk-mono">
        <a href={hrefFor(`/tasks/${encodeURIComponent(t().task_id)}`)} data-testid="task-link">
          {t().task_id}
        </a>
        <Show when={t().removed_at !== null}>
          <span class="tk-hidden-tag" data-testid="task-hidden-tag">
            已隐藏
          </span>
        </Show>
        {/* only a task out of the ordinary line says its priority: the list stays light */}
        <Show when={t().priority !== DEFAULT_PRIORITY}>
          <span
            class="tk-priority-tag"
            classList={{ 'tk-priority-high': t().priority > DEFAULT_PRIORITY }}
            data-testid="task-priority-tag"
            data-priority={t().priority}
          >
            优先级{priorityZh(t().priority)}
          </span>
        </Show>
      </td>
      <td class="tk-title">{t().title ?? '—'}</td>
      <td class="tk-shop" data-testid="task-shop">
        {t().shop_name ?? '—'}
      </td>
      <td class="tk-options">{optionsText(t().pdd_options)}</td>
      <td class="tk-num">{t().quantity ?? '—'}</td>
      <td class="tk-num" data-testid="task-cap">
        {formatYuan(t().max_total_price_cent)}
      </td>
      <ModeCell task={t()} liveWarning={props.liveWarning} />
      <td>
        <StatusBadge status={t().status} label={t().status_zh} />
      </td>
      <td
        class="tk-reason"
        data-testid="task-row-reason"
        data-reason={t().reason_code ?? ''}
        title={reasonZh(t().reason_code, t().status)}
      >
        {reasonZh(t().reason_code, t().status)}
      </td>
      <td class="tk-duration" data-testid="task-duration">
        {durationText(t())}
      </td>
      <td class="tk-time" data-testid="task-updated">
        {formatTime(t().updated_at)}
      </td>
    </tr>
  );
}
