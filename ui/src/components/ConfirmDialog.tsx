import type { JSX } from 'solid-js';
import './components.css';
import Modal from './Modal';

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

export default function ConfirmDialog(props: Props): JSX.Element {
  return (
    <Modal
      title={props.title}
      testid={props.testid}
      onClose={() => props.onClose()}
      footer={
        <>
          <button type="button" class="btn" data-testid={`${props.testid}-back`} onClick={() => props.onClose()}>
            返回
          </button>
          <button
            type="button"
            class="btn btn-primary"
            classList={{ 'tk-btn-danger': props.danger === true }}
            data-testid={`${props.testid}-confirm`}
            disabled={props.busy}
            onClick={() => props.onConfirm()}
          >
            {props.confirmLabel}
          </button>
        </>
      }
    >
      <p>{props.message}</p>
    </Modal>
  );
}
