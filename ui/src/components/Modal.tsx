import { onCleanup, onMount, type JSX } from 'solid-js';
import './components.css';

interface Props {
  title: string;
  testid: string;
  onClose: () => void;
  children: JSX.Element;
  /** Buttons, right-aligned under the body. */
  footer: JSX.Element;
}

/** A plain modal: Escape and the backdrop close it, like every other dialog the operator knows. */
export default function Modal(props: Props): JSX.Element {
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') props.onClose();
  };
  onMount(() => document.addEventListener('keydown', onKey));
  onCleanup(() => document.removeEventListener('keydown', onKey));
  return (
    <div class="tk-backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="tk-dialog" role="dialog" aria-modal="true" aria-label={props.title} data-testid={props.testid}>
        <h2 class="tk-dialog-title">{props.title}</h2>
        <div class="tk-dialog-body">{props.children}</div>
        <div class="tk-dialog-footer">{props.footer}</div>
      </div>
    </div>
  );
}
