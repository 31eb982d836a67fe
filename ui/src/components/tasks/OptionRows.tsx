import { For, type JSX } from 'solid-js';
import FieldError from '../FieldError';
import { TextInput } from '../TextField';

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

/** A row's two boxes: the dimension's name as the panel shows it, and the value picked. */
const ROW_PARTS = [
  { key: 'name', label: '规格名', placeholder: '规格名，如 颜色', testid: 'option-name' },
  { key: 'value', label: '规格值', placeholder: '规格值，如 红色', testid: 'option-value' },
] as const;

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
            <For each={ROW_PARTS}>
              {(part) => (
                <TextInput
                  placeholder={part.placeholder}
                  ariaLabel={`第 ${i() + 1} 个${part.label}`}
                  testid={part.testid}
                  value={row[part.key]}
                  onValue={(v) => update(row.key, { [part.key]: v })}
                />
              )}
            </For>
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
      <FieldError field="pdd_options" message={props.error} />
    </fieldset>
  );
}
