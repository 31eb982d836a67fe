import { Show, type JSX } from 'solid-js';
import { collectRunStatusZh } from '../../../../domain/collect-labels';
import { hrefFor } from '../../router';
import { formatYuan } from '../../lib/money';
import { formatTime } from '../../lib/time';
import StatusBadge from '../StatusBadge';
import { reasonZh } from './reasons';
import { modeZh, optionsText, type TaskListItem } from './types';

interface Props {
  task: TaskListItem;
  selected: boolean;
  onToggle: (selected: boolean) => void;
}

export default function TaskRow(props: Props): JSX.Element {
  const t = (): TaskListItem => props.task;
  return (
    <tr data-testid="task-row" data-task-id={t().task_id} data-status={t().status} classList={{ selected: props.selected }}>
      <td class="tk-check">
        {/* Only drafts can be started, so only drafts can be picked. */}
        <Show when={t().status === 'DRAFT' && t().type === 'purchase'}>
          <input
            type="checkbox"
            aria-label={`选择任务 ${t().task_id}`}
            data-testid="task-select"
            checked={props.selected}
            onChange={(e) => props.onToggle(e.currentTarget.checked)}
          />
        </Show>
      </td>
      <td class="tk-mono">
        <a href={hrefFor(`/tasks/${encodeURIComponent(t().task_id)}`)} data-testid="task-link">
          {t().task_id}
        </a>
      </td>
      <td class="tk-title">{t().title ?? '—'}</td>
      <td>{optionsText(t().pdd_options)}</td>
      <td class="tk-num">{t().quantity ?? '—'}</td>
      <td class="tk-num" data-testid="task-cap">
        {formatYuan(t().max_total_price_cent)}
      </td>
      <td>
        <span classList={{ 'tk-live': t().execution_mode === 'live' }}>{modeZh(t().execution_mode)}</span>
      </td>
      <td>
        <StatusBadge status={t().status} label={t().status_zh ?? (t().type === 'collect' ? collectRunStatusZh(t().status) : null)} />
      </td>
      <td class="tk-reason" data-testid="task-row-reason" data-reason={t().reason_code ?? ''} title={reasonZh(t().reason_code)}>
        {reasonZh(t().reason_code)}
      </td>
      <td class="tk-time">{formatTime(t().updated_at)}</td>
    </tr>
  );
}
