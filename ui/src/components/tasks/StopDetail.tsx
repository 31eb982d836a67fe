import { Show, type JSX } from 'solid-js';
import type { TaskView } from '../../../../domain/purchase/views';
import { stopDetailZh } from './details';
import RawDetail from './RawDetail';

/** What the phone saw when it stopped, in Chinese; a stop without facts only behind 技术详情. */
export default function StopDetail(props: { task: TaskView }): JSX.Element {
  const raw = (): string | null => props.task.attempt?.failure_detail ?? null;
  const zh = (): string | null => stopDetailZh(props.task);
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
