import { Show, type JSX } from 'solid-js';

/**
 * What went wrong, while something did: one alert paragraph, the same on every page. `testid`
 * is the whole test id (pages named theirs before they shared this); `prefix` says what failed.
 */
export default function ErrorMessage(props: {
  message: string | null | undefined;
  testid?: string;
  /** a panel's own error style instead of the form's */
  class?: string;
  prefix?: string;
}): JSX.Element {
  return (
    <Show when={props.message}>
      {(msg) => (
        <p class={props.class ?? 'form-error'} role="alert" data-testid={props.testid}>
          {props.prefix}
          {msg()}
        </p>
      )}
    </Show>
  );
}
