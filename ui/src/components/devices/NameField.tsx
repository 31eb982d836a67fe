import type { JSX } from 'solid-js';
import { DEVICE_NAME_MAX_LENGTH } from '../../../../domain/devices';
import FieldError from '../FieldError';
import TextField from '../TextField';

/**
 * The name a phone or phone host is called by (发放, 改名): one input with the shared length
 * limit and its error below. `testid` names the input; `field` the error (`error-<field>`).
 */
export default function NameField(props: {
  label: string;
  testid: string;
  field: string;
  placeholder?: string;
  value: string;
  onInput: (value: string) => void;
  /** Enter in the box: the dialog's main action */
  onEnter?: () => void;
  error: string | null;
}): JSX.Element {
  return (
    <>
      <TextField
        label={props.label}
        testid={props.testid}
        maxLength={DEVICE_NAME_MAX_LENGTH}
        placeholder={props.placeholder}
        value={props.value}
        onValue={(v) => props.onInput(v)}
        onKeyDown={(e) => e.key === 'Enter' && props.onEnter?.()}
      />
      <FieldError field={props.field} message={props.error} />
    </>
  );
}
