import { createSignal, For, Show, type JSX } from 'solid-js';
import { ACTION_LABEL, allowedActions, closedWorkflowText, CONFIRM_TEXT, type TaskAction } from './actions';
import ConfirmDialog from '../ConfirmDialog';
import ErrorMessage from '../ErrorMessage';
import RawDetail from './RawDetail';
import ResolveDialog from './ResolveDialog';
import type { PurchaseStatus } from './types';

interface Props {
  status: PurchaseStatus;
  /** the Temporal status of a workflow closed while the task is still open; null when it runs */
  workflowClosed: string | null;
  /** the PDD order to pay, named in the 标记已付款 confirmation */
  pddOrderNo: string | null;
  busy: boolean;
  error: string | null;
  /** Resolves once the server has answered; the dialog closes either way. */
  onAction: (action: Exclude<TaskAction, 'edit'>, pddOrderNo?: string) => Promise<unknown>;
  /** 编辑 opens the draft's form; there is nothing to confirm */
  onEdit: () => void;
}

export default function TaskActions(props: Props): JSX.Element {
  const [pending, setPending] = createSignal<TaskAction | null>(null);
  const run = async (action: Exclude<TaskAction, 'edit'>, pddOrderNo?: string): Promise<void> => {
    await props.onAction(action, pddOrderNo);
    setPending(null);
  };
  const confirmable = (): Exclude<TaskAction, 'edit' | 'resolve-created'> | null => {
    const p = pending();
    return p !== null && p !== 'edit' && p !== 'resolve-created' ? p : null;
  };
  return (
    <div class="tk-actions" data-testid="task-actions">
      <Show when={props.workflowClosed}>
        {(closed) => (
          <div class="form-error" role="status" data-testid="workflow-closed" data-workflow-status={closed()}>
            <p>{closedWorkflowText()}</p>
            <RawDetail detail={`workflow ${closed()}`} />
          </div>
        )}
      </Show>
      <For each={allowedActions(props.status, props.workflowClosed !== null)}>
        {(action) => (
          <button
            type="button"
            class="btn"
            classList={{ 'btn-primary': action === 'mark-paid' || action === 'resolve-created' }}
            data-testid={`action-${action}`}
            disabled={props.busy}
            onClick={() => (action === 'edit' ? props.onEdit() : setPending(action))}
          >
            {ACTION_LABEL[action]}
          </button>
        )}
      </For>
      <ErrorMessage class="form-error tk-action-error" testid="action-error" message={props.error} />
      <Show when={confirmable()} keyed>
        {(action) => (
          <ConfirmDialog
            title={CONFIRM_TEXT[action].title}
            message={
              action === 'mark-paid'
                ? `拼多多订单号 ${props.pddOrderNo ?? '（未读到）'}：${CONFIRM_TEXT[action].message}`
                : CONFIRM_TEXT[action].message
            }
            confirmLabel={`确认${ACTION_LABEL[action]}`}
            danger={CONFIRM_TEXT[action].danger}
            testid="confirm-dialog"
            busy={props.busy}
            onConfirm={() => void run(action)}
            onClose={() => setPending(null)}
          />
        )}
      </Show>
      <Show when={pending() === 'resolve-created'}>
        <ResolveDialog
          busy={props.busy}
          onCreated={(no) => void run('resolve-created', no)}
          onClose={() => setPending(null)}
        />
      </Show>
    </div>
  );
}
