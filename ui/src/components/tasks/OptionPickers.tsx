import { For, Show, type JSX } from 'solid-js';
import type { PddSkuRow } from '../../../../domain/catalog-views';
import { formatYuan } from '../../lib/money';
import FieldError from '../FieldError';

export interface CollectedOptions {
  dimensions: ReadonlyArray<{ key: string; name: string }>;
  skus: readonly PddSkuRow[];
}

interface Props {
  collected: CollectedOptions;
  /** dimension name → value, as the purchase carries it */
  value: Readonly<Record<string, string>>;
  onChange: (value: Record<string, string>) => void;
  error: string | null;
}

/** The values a dimension was collected with, in the order the goods lists them. */
function valuesOf(collected: CollectedOptions, key: string): string[] {
  return [...new Set(collected.skus.map((s) => s.options[key]).filter((v): v is string => v !== undefined))];
}

/** The collected row the picks name, if any. */
export function pickedSku(collected: CollectedOptions, value: Readonly<Record<string, string>>): PddSkuRow | undefined {
  return collected.skus.find((s) => collected.dimensions.every((d) => s.options[d.key] === value[d.name]));
}

/**
 * One picker per collected dimension (颜色分类, 尺码, …), with exactly the values the goods was
 * collected with, so a purchase cannot name a value the PDD panel does not show.
 */
export default function OptionPickers(props: Props): JSX.Element {
  const set = (name: string, v: string): void => {
    const next = { ...props.value };
    if (v === '') delete next[name];
    else next[name] = v;
    props.onChange(next);
  };
  const sku = (): PddSkuRow | undefined => pickedSku(props.collected, props.value);
  return (
    <fieldset class="tk-fieldset" data-testid="option-pickers">
      <legend class="field-label">规格（按上次采集结果选择）</legend>
      <div class="tk-pickers">
        <For each={props.collected.dimensions}>
          {(d) => (
            <label class="field">
              <span class="field-label">{d.name}</span>
              <select
                class="input"
                data-testid="option-picker"
                data-dimension={d.name}
                value={props.value[d.name] ?? ''}
                onChange={(e) => set(d.name, e.currentTarget.value)}
              >
                <option value="">请选择</option>
                <For each={valuesOf(props.collected, d.key)}>{(v) => <option value={v}>{v}</option>}</For>
              </select>
            </label>
          )}
        </For>
      </div>
      <Show when={sku()}>
        {(s) => (
          <p class="muted tk-hint" data-testid="option-picked">
            采集单价 {s().price_cent === null ? '未知' : formatYuan(s().price_cent!)} ·{' '}
            {s().available ? '有货' : <span class="tk-live">缺货</span>}
          </p>
        )}
      </Show>
      <FieldError field="pdd_options" message={props.error} />
    </fieldset>
  );
}
