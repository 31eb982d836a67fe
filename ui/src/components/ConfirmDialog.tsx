import type { JSX } from 'solid-js';
import FormDialog from './FormDialog';

interface Props {
  title: string;
  message: string;
  confirmLabel: string;
  testid: string;
  busy: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before an action: its message, 返回 and the action (`<testid>-back`, `<testid>-confirm`). */
export default function ConfirmDialog(props: Props): JSX.Element {
  return (
    <FormDialog
      title={props.title}
      testid={props.testid}
      onClose={() => props.onClose()}
      submitLabel={props.confirmLabel}
      submitTestid={`${props.testid}-confirm`}
      backTestid={`${props.testid}-back`}
      busy={props.busy}
      danger={props.danger}
      onSubmit={() => props.onConfirm()}
    >
      <p>{props.message}</p>
    </FormDialog>
  );
}
