import { For, type JSX } from 'solid-js';
import FieldError from '../FieldError';
import { PRIORITY_CHOICES } from './priority';

/** 优先级 of a draft: which waiting task a free phone takes first. */
export default function PriorityField(props: {
  value: number;
  onChange: (priority: number) => void;
  error: string | undefined;
}): JSX.Element {
  return (
    <label class="field">
      <span class="field-label">优先级</span>
      <select
        class="input"
        data-testid="field-priority"
        onChange={(e) => props.onChange(Number(e.currentTarget.value))}
      >
        <For each={PRIORITY_CHOICES}>
          {(c) => (
            <option value={String(c.value)} selected={c.value === props.value}>
              {c.label}
            </option>
          )}
        </For>
      </select>
      <span class="muted tk-hint">有空闲手机时，先领取优先级高的任务；同一优先级按开始采购的先后。</span>
      <FieldError field="priority" message={props.error} />
    </label>
  );
}
