import { Show, type JSX } from 'solid-js';
import './components.css';
import Modal from './Modal';

/**
 * A dialog that asks the operator for something (a name, an order number, a yes): its content,
 * then 返回 and the one button that does it, disabled while that runs. The buttons take the test
 * ids the dialogs had before they shared this.
 */
export default function FormDialog(props: {
  title: string;
  testid: string;
  onClose: () => void;
  submitLabel: string;
  /** the button's text while busy, where it says so */
  busyLabel?: string;
  submitTestid: string;
  busy: boolean;
  onSubmit: () => void;
  /** a red button: the action cannot be undone */
  danger?: boolean;
  /** false: no 返回 (Escape and the backdrop still close) */
  back?: boolean;
  backTestid?: string;
  children: JSX.Element;
}): JSX.Element {
  return (
    <Modal
      title={props.title}
      testid={props.testid}
      onClose={() => props.onClose()}
      footer={
        <>
          <Show when={props.back !== false}>
            <button type="button" class="btn" data-testid={props.backTestid} onClick={() => props.onClose()}>
              返回
            </button>
          </Show>
          <button
            type="button"
            class="btn btn-primary"
            classList={{ 'tk-btn-danger': props.danger === true }}
            data-testid={props.submitTestid}
            disabled={props.busy}
            onClick={() => props.onSubmit()}
          >
            {props.busy && props.busyLabel !== undefined ? props.busyLabel : props.submitLabel}
          </button>
        </>
      }
    >
      {props.children}
    </Modal>
  );
}
