import { Show, type JSX } from 'solid-js';
import type { TaskView } from '../../../../domain/purchase/views';
import { createStart } from './start';
import StartConfirmDialog from './StartConfirmDialog';

interface Props {
  task: TaskView;
  /** after the start (or a refusal): the page reads the task again */
  onDone: () => Promise<void>;
}

/**
 * 开始采购 on the task page: the list's start for this one draft, at the version shown, with the
 * same confirmation (live or dry run, the most it may cost) and the same all-or-nothing refusal.
 */
export default function StartOne(props: Props): JSX.Element {
  const start = createStart({
    tasks: () => [{ task_id: props.task.task_id, version: props.task.version }],
    refusedText: '任务没有开始：',
    onStarted: () => props.onDone(),
    reload: () => props.onDone(),
  });
  const live = (): number => (props.task.execution_mode === 'live' ? 1 : 0);

  return (
    <>
      <button
        type="button"
        class="btn btn-primary"
        data-testid="action-start"
        disabled={start.busy()}
        onClick={start.openDialog}
      >
        开始采购
      </button>
      <Show when={start.open()}>
        <StartConfirmDialog
          count={1}
          maxTotalPriceCentSum={props.task.max_total_price_cent}
          liveCount={live()}
          dryRunCount={1 - live()}
          liveWarnings={props.task.warnings.filter((w) => w.code === 'APP_VERSION_NOT_RELEASED')}
          start={start}
        />
      </Show>
    </>
  );
}
