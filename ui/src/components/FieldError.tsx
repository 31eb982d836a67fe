import { Show, type JSX } from 'solid-js';
import './components.css';

export default function FieldError(props: { field: string; message: string | null | undefined }): JSX.Element {
  return (
    <Show when={props.message}>
      {(msg) => (
        <p class="form-error tk-field-error" data-testid={`error-${props.field}`}>
          {msg()}
        </p>
      )}
    </Show>
  );
}
