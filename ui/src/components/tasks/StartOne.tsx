import { batch, createSignal, Show, type JSX } from 'solid-js';
import type { TaskView } from '../../../../domain/purchase/views';
import { ApiError } from '../../api/client';
import { startTasks } from '../../api/endpoints';
import { errorText } from '../../errors';
import StartConfirmDialog from './StartConfirmDialog';
import { startRefusals, type StartRefusal } from './types';

interface Props {
  task: TaskView;
  /** after the start (or a refusal): the page reads the task again */
  onDone: () => Promise<void>;
}

/**
 * 开始采购 on the task page: the list's start for this one draft, at the version shown, with the
 * same confirmation (live or dry run, the cap) and the same all-or-nothing refusal.
 */
export default function StartOne(props: Props): JSX.Element {
  const [open, setOpen] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [refusals, setRefusals] = createSignal<StartRefusal[]>([]);
  const live = (): number => (props.task.execution_mode === 'live' ? 1 : 0);

  const start = async (): Promise<void> => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    try {
      await startTasks([{ task_id: props.task.task_id, version: props.task.version }]);
      setOpen(false);
      await props.onDone();
    } catch (err) {
      const list = err instanceof ApiError ? startRefusals(err.details) : [];
      batch(() => {
        setRefusals(list);
        setError(list.length > 0 ? '任务没有开始：' : errorText(err));
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        class="btn btn-primary"
        data-testid="action-start"
        disabled={busy()}
        onClick={() => {
          batch(() => {
            setError(null);
            setRefusals([]);
            setOpen(true);
          });
        }}
      >
        开始采购
      </button>
      <Show when={open()}>
        <StartConfirmDialog
          count={1}
          capSumCents={props.task.max_total_price_cent}
          liveCount={live()}
          dryRunCount={1 - live()}
          busy={busy()}
          error={error()}
          refusals={refusals()}
          onConfirm={() => void start()}
          onClose={() => {
            setOpen(false);
            if (error() !== null) void props.onDone();
          }}
        />
      </Show>
    </>
  );
}
