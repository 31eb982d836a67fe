import { createSignal, For, onMount, Show, type JSX } from 'solid-js';
import { OPTIONAL_SETTINGS, SETTINGS } from '../../../../domain/settings';
import { ApiError } from '../../api/client';
import { getSettings, saveSettings } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction } from '../../lib/action';
import FieldError from '../FieldError';
import FormFooter from '../FormFooter';
import { MONEY_KEYS, moneyChange, moneyToText, type MoneyKey, type MoneyValues } from './money-settings';

const UNIT: Record<MoneyKey, string> = {
  'money.twd_to_cny_rate_ppm': '1 新台币 = ? 人民币',
  'money.platform_fee_bp': '%',
  'money.line_fee_cny_cent': '元',
  'money.min_margin_bp': '%，留空不检查',
};

/** the range as the operator types it (the stored integers are ppm, basis points and cents) */
const RANGE: Record<MoneyKey, string> = {
  'money.twd_to_cny_rate_ppm': '0.000001–10',
  'money.platform_fee_bp': '0–100%',
  'money.line_fee_cny_cent': '¥0.00–¥1000.00',
  'money.min_margin_bp': '-100%–100%',
};

const describe = (key: MoneyKey) =>
  key === 'money.twd_to_cny_rate_ppm' || key === 'money.min_margin_bp' ? OPTIONAL_SETTINGS[key] : SETTINGS[key];

/** 金额: the rate and fees the margin of every order line is computed with (docs/operator-guide.md 概览). */
export default function MoneySettingsForm(): JSX.Element {
  const [saved, setSaved] = createSignal<MoneyValues | null>(null);
  const [texts, setTexts] = createSignal<Record<MoneyKey, string> | null>(null);
  const [errors, setErrors] = createSignal<Partial<Record<MoneyKey, string>>>({});
  const show = (values: MoneyValues) => {
    setSaved(values);
    setTexts(Object.fromEntries(MONEY_KEYS.map((k) => [k, moneyToText(k, values[k])])) as Record<MoneyKey, string>);
  };
  const save = createAction(
    async (): Promise<string | null> => {
      const current = texts();
      const before = saved();
      if (!current || !before) return null;
      const { change, errors: refused } = moneyChange(current, before);
      setErrors(refused);
      if (Object.keys(refused).length > 0) return null;
      if (!change) return '没有改动';
      show((await saveSettings(change)).values);
      return '已保存：此后到达待付款的订单按新设置计算，之前的不变';
    },
    {
      success: (said) => said,
      failure: (err, text) => {
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_FAILED') return text;
        const issues = (err.details as { issues?: Array<{ path: string; message: string }> } | undefined)?.issues ?? [];
        setErrors(Object.fromEntries(issues.map((i) => [i.path, i.message])));
        return null;
      },
    },
  );
  onMount(async () => {
    try {
      show((await getSettings()).values);
    } catch (err) {
      save.setError(errorText(err));
    }
  });
  return (
    <form
      class="card tk-section tk-form"
      data-testid="money-settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
      novalidate
    >
      <h2 class="tk-section-title">金额</h2>
      <p class="muted">
        用于计算每个订单行的人民币售价、费用与毛利（概览、订单、任务页与导出）。每笔真实下单到达「待付款」时记下当时的汇率与费用，之后修改不会改写已有的毛利。
      </p>
      <Show when={texts()}>
        {(t) => (
          <For each={MONEY_KEYS}>
            {(key) => (
              <label class="field" data-testid="setting" data-key={key}>
                <span class="field-label">
                  {describe(key).label}（{UNIT[key]}）
                </span>
                <input
                  class="input"
                  inputmode="decimal"
                  data-testid={`setting-${key}`}
                  value={t()[key]}
                  onInput={(e) => setTexts({ ...t(), [key]: e.currentTarget.value })}
                />
                <span class="muted tk-hint">
                  {describe(key).help} 范围 {RANGE[key]}。
                </span>
                <FieldError field={key} message={errors()[key]} />
              </label>
            )}
          </For>
        )}
      </Show>
      <FormFooter testid="money-settings" save={save} disabled={texts() === null} label="保存金额设置" />
    </form>
  );
}
