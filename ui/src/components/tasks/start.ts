import { batch, createSignal } from 'solid-js';
import { ApiError } from '../../api/client';
import { startTasks } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import { startRefusals, type StartRefusal } from './types';

/**
 * 开始采购, confirmed in a dialog (StartConfirmDialog): every draft started at the version shown,
 * or none and, per task, why not. Used for the list's picked drafts and the task page's one.
 */
export function createStart(opts: {
  /** the drafts to start, at the version the operator saw */
  tasks: () => ReadonlyArray<{ task_id: string; version: number }>;
  /** what the error says above the refused tasks */
  refusedText: string;
  /** after the start, with how many started: the page reads its tasks again */
  onStarted: (count: number) => Promise<void>;
  /** the page reads its tasks again: a refused start means some task moved on */
  reload: () => Promise<void>;
}) {
  const [open, setOpen] = createSignal(false);
  const [refusals, setRefusals] = createSignal<StartRefusal[]>([]);
  const start = createAction(
    async () => {
      setRefusals([]);
      const tasks = [...opts.tasks()];
      await startTasks(tasks);
      setOpen(false);
      await opts.onStarted(tasks.length);
    },
    {
      failure: (err, text) => {
        const list = err instanceof ApiError ? startRefusals(err.details) : [];
        setRefusals(list);
        return list.length > 0 ? opts.refusedText : text;
      },
    },
  );
  const openDialog = (): void =>
    batch(() => {
      start.setError(null);
      setRefusals([]);
      setOpen(true);
    });
  const close = (): void => {
    setOpen(false);
    // show the operator where things stand
    if (start.error() !== null) void opts.reload();
  };
  return { open, busy: start.busy, error: start.error, refusals, openDialog, close, run: start.run };
}
export type Start = ReturnType<typeof createStart>;
