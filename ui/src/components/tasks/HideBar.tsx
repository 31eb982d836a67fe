import { Show, type JSX } from 'solid-js';
import type { Action } from '../../lib/action';
import ErrorMessage from '../ErrorMessage';
import SelectionBar from '../SelectionBar';

/** 隐藏所选: the finished tasks picked to hide, shown while there are some or a refusal to read. */
export default function HideBar(props: { count: number; hide: Action<[], unknown>; onClear: () => void }): JSX.Element {
  return (
    <Show when={props.count > 0 || props.hide.error() !== null}>
      <SelectionBar
        testid="hide-bar"
        summary={
          <span>
            已选 <strong data-testid="hide-count">{props.count}</strong> 个已结束的任务
          </span>
        }
        count={props.count}
        action={props.hide}
        actionLabel="隐藏所选"
        actionTestid="hide-selected"
        onClear={() => props.onClear()}
      >
        <ErrorMessage testid="hide-error" message={props.hide.error()} />
      </SelectionBar>
    </Show>
  );
}
