import { For, Show, type JSX } from 'solid-js';
import { rangeText, SETTINGS, type SettingKey } from '../../../../domain/settings';
import FieldError from '../FieldError';
import FormFooter from '../FormFooter';
import { createSafetySettings, SAFETY_KEYS, toText } from './safety-settings';

/** 安全与运行: the settings of domain/settings.ts; saves only what was changed, in one request. */
export default function SafetySettingsForm(): JSX.Element {
  const s = createSafetySettings();
  return (
    <form class="card tk-section tk-form" data-testid="settings-form" onSubmit={(e) => void s.submit(e)} novalidate>
      <h2 class="tk-section-title">安全与运行</h2>
      <Show
        when={s.texts()}
        fallback={
          <Show when={s.save.error() === null}>
            <p class="muted">正在加载…</p>
          </Show>
        }
      >
        {(t) => (
          <For each={SAFETY_KEYS}>
            {(key) => (
              <SettingField
                settingKey={key}
                text={t()[key]}
                onInput={(text) => s.setTexts({ ...t(), [key]: text })}
                invalid={s.invalid().includes(key)}
                error={s.errors()[key]}
              />
            )}
          </For>
        )}
      </Show>
      <FormFooter testid="settings" save={s.save} disabled={s.texts() === null} label="保存设置" />
    </form>
  );
}

/** One setting: its label and unit, the text typed, its range and default, and what is wrong with it. */
function SettingField(props: {
  settingKey: SettingKey;
  text: string;
  onInput: (text: string) => void;
  /** the stored value is invalid: shown as the default until saved */
  invalid: boolean;
  error: string | undefined;
}): JSX.Element {
  const key = (): SettingKey => props.settingKey;
  return (
    <label class="field" data-testid="setting" data-key={key()}>
      <span class="field-label">
        {SETTINGS[key()].label}（{SETTINGS[key()].unit}）
      </span>
      <input
        class="input"
        inputmode={SETTINGS[key()].unit === '元' ? 'decimal' : 'numeric'}
        data-testid={`setting-${key()}`}
        value={props.text}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <span class="muted tk-hint">
        {SETTINGS[key()].help} 范围 {rangeText(key())}，默认 {toText(key(), SETTINGS[key()].default)}。
      </span>
      <Show when={props.invalid}>
        <span class="form-error tk-field-error" data-testid={`setting-invalid-${key()}`}>
          数据库中的值无效，暂按默认值显示；保存后恢复正常。
        </span>
      </Show>
      <FieldError field={key()} message={props.error} />
    </label>
  );
}
