import { Show, type JSX } from 'solid-js';
import FieldError from './FieldError';

/** What a text box of the operator's forms may set besides its value (named, so none is a typo). */
interface InputProps {
  testid?: string;
  value: string;
  /** what is typed, on every keystroke */
  onValue: (value: string) => void;
  type?: 'text' | 'password';
  name?: string;
  placeholder?: string;
  autocomplete?: string;
  inputmode?: 'numeric' | 'decimal';
  maxLength?: number;
  autofocus?: boolean;
  /** for a box with no label of its own */
  ariaLabel?: string;
  style?: JSX.CSSProperties;
  onKeyDown?: (e: KeyboardEvent) => void;
}

/** A text box of the operator's forms. */
export function TextInput(props: InputProps): JSX.Element {
  return (
    <input
      class="input"
      type={props.type}
      name={props.name}
      placeholder={props.placeholder}
      autocomplete={props.autocomplete}
      inputmode={props.inputmode}
      maxLength={props.maxLength}
      autofocus={props.autofocus}
      aria-label={props.ariaLabel}
      style={props.style}
      data-testid={props.testid}
      value={props.value}
      onInput={(e) => props.onValue(e.currentTarget.value)}
      onKeyDown={(e) => props.onKeyDown?.(e)}
    />
  );
}

/**
 * A labelled text box, what the form says about it (`children`) and its error below, as
 * `FieldError` names it (`error-<field>`); without `field` the caller shows errors its own way.
 */
export default function TextField(
  props: InputProps & {
    label: JSX.Element;
    testid: string;
    field?: string;
    error?: string | null;
    children?: JSX.Element;
  },
): JSX.Element {
  return (
    <label class="field">
      <span class="field-label">{props.label}</span>
      <TextInput {...props} />
      {props.children}
      <Show when={props.field}>{(field) => <FieldError field={field()} message={props.error} />}</Show>
    </label>
  );
}
