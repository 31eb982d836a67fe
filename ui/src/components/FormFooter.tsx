import { Show, type JSX } from 'solid-js';

/**
 * The end of a settings form: its error, what the last save did, and the save button.
 * `testid` is the form's prefix (`settings` → `settings-error`, `settings-notice`, `settings-save`).
 */
export default function FormFooter(props: {
  testid: string;
  error: string | null;
  notice: string | null;
  busy: boolean;
  disabled: boolean;
  label: string;
}): JSX.Element {
  return (
    <>
      <Show when={props.error}>
        {(msg) => (
          <p class="form-error" role="alert" data-testid={`${props.testid}-error`}>
            {msg()}
          </p>
        )}
      </Show>
      <div class="tk-form-actions">
        <Show when={props.notice}>
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
          disabled={props.busy || props.disabled}
        >
          {props.busy ? '正在保存…' : props.label}
        </button>
      </div>
    </>
  );
}
