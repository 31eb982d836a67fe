import type { JSX } from 'solid-js';

/** The button that runs an action: disabled while it runs (and while `disabled`), saying `busyLabel` meanwhile. */
export default function ActionButton(props: {
  /** an Action (lib/action.ts), or what opens the dialog that runs one */
  action: { busy: () => boolean; run: () => unknown };
  /** `btn` unless the page styles it otherwise */
  class?: string;
  testid?: string;
  busyLabel?: string;
  disabled?: boolean;
  children: JSX.Element;
}): JSX.Element {
  return (
    <button
      type="button"
      class={props.class ?? 'btn'}
      data-testid={props.testid}
      disabled={props.action.busy() || props.disabled === true}
      onClick={() => void props.action.run()}
    >
      {props.action.busy() && props.busyLabel !== undefined ? props.busyLabel : props.children}
    </button>
  );
}
