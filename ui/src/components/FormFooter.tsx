import { Show, type JSX } from 'solid-js';
import type { ActionState } from '../lib/action';
import ErrorMessage from './ErrorMessage';

/**
 * The end of a settings form: its save's error, what the last save did, and the save button.
 * `testid` is the form's prefix (`settings` → `settings-error`, `settings-notice`, `settings-save`).
 */
export default function FormFooter(props: {
  testid: string;
  save: ActionState;
  disabled: boolean;
  label: string;
}): JSX.Element {
  return (
    <>
      <ErrorMessage testid={`${props.testid}-error`} message={props.save.error()} />
      <div class="tk-form-actions">
        <Show when={props.save.notice()}>
          {(n) => (
            <span class="muted" data-testid={`${props.testid}-notice`}>
              {n()}
            </span>
          )}
        </Show>
        <button
          type="submit"
          class="btn btn-primary"
          data-testid={`${props.testid}-save`}
          disabled={props.save.busy() || props.disabled}
        >
          {props.save.busy() ? '正在保存…' : props.label}
        </button>
      </div>
    </>
  );
}
