import type { JSX } from 'solid-js';
import ActionButton from './ActionButton';
import './components.css';

/**
 * The rows picked and what can be done with them: how many (`summary`), 清除选择, and the one
 * action, offered once a row is picked and not while it runs. `children` follow the buttons.
 */
export default function SelectionBar(props: {
  testid: string;
  summary: JSX.Element;
  count: number;
  action: { busy: () => boolean; run: () => unknown };
  actionLabel: string;
  actionTestid: string;
  /** the page's main action: a primary button */
  primary?: boolean;
  clearTestid?: string;
  onClear: () => void;
  children?: JSX.Element;
}): JSX.Element {
  return (
    <div class="tk-selbar" data-testid={props.testid}>
      {props.summary}
      <button type="button" class="btn btn-ghost" data-testid={props.clearTestid} onClick={() => props.onClear()}>
        清除选择
      </button>
      <ActionButton
        action={props.action}
        class={props.primary === true ? 'btn btn-primary' : 'btn'}
        testid={props.actionTestid}
        disabled={props.count === 0}
      >
        {props.actionLabel}
      </ActionButton>
      {props.children}
    </div>
  );
}
