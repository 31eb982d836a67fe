import { createSignal, onMount } from 'solid-js';
import {
  SETTING_KEYS,
  SETTINGS,
  settingsUpdateSchema,
  type OptionalSettingKey,
  type SettingKey,
  type SettingsValues,
  type TextSettingKey,
} from '../../../../domain/settings';
import { ApiError } from '../../api/client';
import { getSettings, saveSettings } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction } from '../../lib/action';
import { formatCent } from '../../../../domain/money';
import { parseYuanAmount } from '../../lib/money';
import { issuesByField } from './issues';

type SettingTexts = Record<SettingKey, string>;

/** 安全与运行's keys; the money ones have a form of their own (MoneySettingsForm.tsx) */
export const SAFETY_KEYS = SETTING_KEYS.filter((k) => !k.startsWith('money.'));
/** an address setting has a form of its own (PublicUrlForm.tsx); its invalid flag passes through */
type AnyKey = SettingKey | OptionalSettingKey | TextSettingKey;

/** What the operator types: yuan for money (stored as cents), whole numbers otherwise. */
export function toText(key: SettingKey, value: number): string {
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

/** The settings typed against those saved: what changed (an invalid stored value always counts), and each refusal. */
function settingsChange(texts: SettingTexts, saved: SettingsValues, invalid: readonly AnyKey[]) {
  const fieldErrors: Record<string, string> = {};
  const change: Partial<SettingsValues> = {};
  for (const key of SAFETY_KEYS) {
    const parsed = fromText(key, texts[key]);
    if (!parsed.ok) fieldErrors[key] = parsed.message;
    else if (parsed.value !== saved[key] || invalid.includes(key)) change[key] = parsed.value;
  }
  const checked = settingsUpdateSchema.safeParse(change);
  if (!checked.success) Object.assign(fieldErrors, { ...issuesByField(checked.error.issues), ...fieldErrors });
  return { change, checked, fieldErrors };
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

/** 安全与运行's data: the saved settings, the texts as typed, and saving only what was changed, in one request. */
export function createSafetySettings() {
  const [saved, setSaved] = createSignal<SettingsValues | null>(null);
  const [invalid, setInvalid] = createSignal<readonly AnyKey[]>([]);
  const [texts, setTexts] = createSignal<SettingTexts | null>(null);
  const [errors, setErrors] = createSignal<Partial<Record<string, string>>>({});

  const show = (values: SettingsValues, bad: readonly AnyKey[]): void => {
    setSaved(values);
    setInvalid(bad);
    setTexts(Object.fromEntries(SAFETY_KEYS.map((k) => [k, toText(k, values[k])])) as SettingTexts);
  };

  /** What the save says: 没有改动, or nothing when a field is refused here (null) or there. */
  const save = createAction(
    async (current: SettingTexts, before: SettingsValues): Promise<string | null> => {
      const { change, checked, fieldErrors } = settingsChange(current, before, invalid());
      if (Object.keys(change).length === 0 && Object.keys(fieldErrors).length === 0) {
        setErrors({});
        return '没有改动';
      }
      setErrors(fieldErrors);
      if (!checked.success || Object.keys(fieldErrors).length > 0) return null;
      const view = await saveSettings(checked.data);
      show(view.values, view.invalid);
      return '已保存，立即生效';
    },
    {
      success: (said) => said,
      failure: (err, text) => {
        const fromServer = err instanceof ApiError && err.code === 'VALIDATION_FAILED' ? serverIssues(err.details) : {};
        if (Object.keys(fromServer).length === 0) return text;
        setErrors(fromServer);
        return null;
      },
    },
  );

  onMount(async () => {
    try {
      const view = await getSettings();
      show(view.values, view.invalid);
      save.setError(null);
    } catch (err) {
      save.setError(errorText(err));
    }
  });

  const submit = (e: Event): void => {
    e.preventDefault();
    const current = texts();
    const before = saved();
    if (current && before) void save.run(current, before);
  };

  return { invalid, texts, setTexts, errors, save, submit };
}
