import { createSignal, For, onMount, Show, type JSX } from 'solid-js';
import {
  rangeText,
  SETTING_KEYS,
  SETTINGS,
  settingsUpdateSchema,
  type SettingKey,
  type SettingsValues,
} from '../../../../domain/settings';
import { ApiError } from '../../api/client';
import { getSettings, saveSettings } from '../../api/endpoints';
import { errorText } from '../../errors';
import { formatCent } from '../../../../domain/money';
import { parseYuanAmount } from '../../lib/money';
import FieldError from '../FieldError';
import FormFooter from '../FormFooter';
import { issuesByField } from './issues';

type Texts = Record<SettingKey, string>;

/** What the operator types: yuan for money (stored as cents), whole numbers otherwise. */
function toText(key: SettingKey, value: number): string {
  return SETTINGS[key].unit === '元' ? formatCent(value) : String(value);
}

function fromText(key: SettingKey, text: string): { ok: true; value: number } | { ok: false; message: string } {
  if (SETTINGS[key].unit === '元') {
    const parsed = parseYuanAmount(text);
    return parsed.ok ? { ok: true, value: parsed.cents } : parsed;
  }
  const s = text.trim();
  if (!/^\d{1,9}$/.test(s)) return { ok: false, message: `${SETTINGS[key].label}须为整数` };
  return { ok: true, value: Number(s) };
}

/** 安全与运行: the settings of domain/settings.ts; saves only what was changed, in one request. */
export default function SafetySettingsForm(): JSX.Element {
  const [saved, setSaved] = createSignal<SettingsValues | null>(null);
  const [invalid, setInvalid] = createSignal<readonly SettingKey[]>([]);
  const [texts, setTexts] = createSignal<Texts | null>(null);
  const [errors, setErrors] = createSignal<Partial<Record<string, string>>>({});
  const [formError, setFormError] = createSignal<string | null>(null);
  const [notice, setNotice] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const show = (values: SettingsValues, bad: readonly SettingKey[]): void => {
    setSaved(values);
    setInvalid(bad);
    setTexts(Object.fromEntries(SETTING_KEYS.map((k) => [k, toText(k, values[k])])) as Texts);
  };

  const load = async (): Promise<void> => {
    try {
      const view = await getSettings();
      show(view.values, view.invalid);
      setFormError(null);
    } catch (err) {
      setFormError(errorText(err));
    }
  };
  onMount(() => void load());

  const onSubmit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const current = texts();
    const before = saved();
    if (!current || !before) return;
    setNotice(null);
    setFormError(null);
    const fieldErrors: Record<string, string> = {};
    const change: Partial<SettingsValues> = {};
    for (const key of SETTING_KEYS) {
      const parsed = fromText(key, current[key]);
      if (!parsed.ok) fieldErrors[key] = parsed.message;
      else if (parsed.value !== before[key] || invalid().includes(key)) change[key] = parsed.value;
    }
    const checked = settingsUpdateSchema.safeParse(change);
    if (!checked.success) Object.assign(fieldErrors, { ...issuesByField(checked.error.issues), ...fieldErrors });
    if (Object.keys(change).length === 0 && Object.keys(fieldErrors).length === 0) {
      setErrors({});
      setNotice('没有改动');
      return;
    }
    setErrors(fieldErrors);
    if (!checked.success || Object.keys(fieldErrors).length > 0) return;
    setBusy(true);
    try {
      const view = await saveSettings(checked.data);
      show(view.values, view.invalid);
      setNotice('已保存，立即生效');
    } catch (err) {
      const fromServer = err instanceof ApiError && err.code === 'VALIDATION_FAILED' ? serverIssues(err.details) : {};
      if (Object.keys(fromServer).length > 0) setErrors(fromServer);
      else setFormError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card tk-section tk-form" data-testid="settings-form" onSubmit={(e) => void onSubmit(e)} novalidate>
      <h2 class="tk-section-title">安全与运行</h2>
      <Show
        when={texts()}
        fallback={
          <Show when={formError() === null}>
            <p class="muted">正在加载…</p>
          </Show>
        }
      >
        {(t) => (
          <For each={SETTING_KEYS}>
            {(key) => (
              <label class="field" data-testid="setting" data-key={key}>
                <span class="field-label">
                  {SETTINGS[key].label}（{SETTINGS[key].unit}）
                </span>
                <input
                  class="input"
                  inputmode={SETTINGS[key].unit === '元' ? 'decimal' : 'numeric'}
                  data-testid={`setting-${key}`}
                  value={t()[key]}
                  onInput={(e) => setTexts({ ...t(), [key]: e.currentTarget.value })}
                />
                <span class="muted tk-hint">
                  {SETTINGS[key].help} 范围 {rangeText(key)}，默认 {toText(key, SETTINGS[key].default)}。
                </span>
                <Show when={invalid().includes(key)}>
                  <span class="form-error tk-field-error" data-testid={`setting-invalid-${key}`}>
                    数据库中的值无效，暂按默认值显示；保存后恢复正常。
                  </span>
                </Show>
                <FieldError field={key} message={errors()[key]} />
              </label>
            )}
          </For>
        )}
      </Show>
      <FormFooter
        testid="settings"
        error={formError()}
        notice={notice()}
        busy={busy()}
        disabled={texts() === null}
        label="保存设置"
      />
    </form>
  );
}

/** A 400's zod issues (admin/http/errors.ts), keyed by field; their messages are the schema's Chinese. */
function serverIssues(details: unknown): Record<string, string> {
  if (typeof details !== 'object' || details === null || !('issues' in details) || !Array.isArray(details.issues))
    return {};
  return issuesByField(
    (details.issues as unknown[]).flatMap((i) =>
      typeof i === 'object' && i !== null && 'path' in i && 'message' in i && typeof i.message === 'string'
        ? [{ path: [String(i.path)], message: i.message }]
        : [],
    ),
  );
}
