import { For, Show, type JSX } from 'solid-js';

export interface OptionRow {
  /** Stable key so editing one row never remounts another input under the cursor. */
  key: number;
  name: string;
  value: string;
}

interface Props {
  rows: readonly OptionRow[];
  onChange: (rows: OptionRow[]) => void;
  newKey: () => number;
  error: string | null;
}

/** One row per dimension the PDD panel shows (颜色, 尺码, …); values must match the page exactly. */
export default function OptionRows(props: Props): JSX.Element {
  const update = (key: number, patch: Partial<OptionRow>): void =>
    props.onChange(props.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const remove = (key: number): void => props.onChange(props.rows.filter((r) => r.key !== key));
  const add = (): void => props.onChange([...props.rows, { key: props.newKey(), name: '', value: '' }]);
  return (
    <fieldset class="tk-fieldset" data-testid="option-rows">
      <legend class="field-label">规格（与拼多多规格面板上的文字完全一致）</legend>
      <For each={props.rows}>
        {(row, i) => (
          <div class="tk-option-row" data-testid="option-row">
            <input
              class="input"
              placeholder="规格名，如 颜色"
              aria-label={`第 ${i() + 1} 个规格名`}
              data-testid="option-name"
              value={row.name}
              onInput={(e) => update(row.key, { name: e.currentTarget.value })}
            />
            <input
              class="input"
              placeholder="规格值，如 红色"
              aria-label={`第 ${i() + 1} 个规格值`}
              data-testid="option-value"
              value={row.value}
              onInput={(e) => update(row.key, { value: e.currentTarget.value })}
            />
            <button
              type="button"
              class="btn btn-ghost"
              data-testid="option-remove"
              disabled={props.rows.length <= 1}
              onClick={() => remove(row.key)}
            >
              删除
            </button>
          </div>
        )}
      </For>
      <button type="button" class="btn" data-testid="option-add" onClick={add}>
        添加规格
      </button>
      <Show when={props.error}>
        {(msg) => (
          <p class="form-error tk-field-error" data-testid="error-pdd_options">
            {msg()}
          </p>
        )}
      </Show>
    </fieldset>
  );
}
