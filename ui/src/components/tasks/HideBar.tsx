import { Show, type JSX } from 'solid-js';

/** 隐藏所选: the finished tasks picked to hide, shown while there are some or a refusal to read. */
export default function HideBar(props: {
  count: number;
  busy: boolean;
  error: string | null;
  onClear: () => void;
  onHide: () => void;
}): JSX.Element {
  return (
    <Show when={props.count > 0 || props.error !== null}>
      <div class="tk-selbar" data-testid="hide-bar">
        <span>
          已选 <strong data-testid="hide-count">{props.count}</strong> 个已结束的任务
        </span>
        <button type="button" class="btn btn-ghost" onClick={() => props.onClear()}>
          清除选择
        </button>
        <button
          type="button"
          class="btn"
          data-testid="hide-selected"
          disabled={props.count === 0 || props.busy}
          onClick={() => props.onHide()}
        >
          隐藏所选
        </button>
        <Show when={props.error}>
          {(msg) => (
            <p class="form-error" role="alert" data-testid="hide-error">
              {msg()}
            </p>
          )}
        </Show>
      </div>
    </Show>
  );
}
