import { createSignal, onMount, type JSX } from 'solid-js';
import { publicUrlSchema, TEXT_SETTINGS } from '../../../../domain/settings';
import { getSettings, saveSettings } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction } from '../../lib/action';
import FormFooter from '../FormFooter';
import TextField from '../TextField';

const KEY = 'admin.public_url';

/**
 * 管理服务对外地址 (`admin.public_url`): where phone hosts on other machines reach this admin. The
 * command 发放主机凭据 prints uses it, never the address this browser happens to use.
 */
export default function PublicUrlForm(): JSX.Element {
  const [text, setText] = createSignal('');
  const [saved, setSaved] = createSignal<string | null>(null);
  const [loaded, setLoaded] = createSignal(false);
  const [error, setError] = createSignal<string | undefined>(undefined);
  const save = createAction(
    async (): Promise<string | null> => {
      const typed = text().trim();
      const checked = typed === '' ? { success: true as const, data: null } : publicUrlSchema.safeParse(typed);
      if (!checked.success) {
        setError(checked.error.issues[0]?.message);
        return null;
      }
      setError(undefined);
      if (checked.data === saved()) return '没有改动';
      const view = await saveSettings({ [KEY]: checked.data });
      setSaved(view.values[KEY]);
      setText(view.values[KEY] ?? '');
      return '已保存，立即生效';
    },
    { success: (said) => said },
  );
  onMount(async () => {
    try {
      const view = await getSettings();
      setSaved(view.values[KEY]);
      setText(view.values[KEY] ?? '');
      setLoaded(true);
    } catch (err) {
      save.setError(errorText(err));
    }
  });
  return (
    <form
      class="card tk-section tk-form"
      data-testid="public-url-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
      novalidate
    >
      <h2 class="tk-section-title">{TEXT_SETTINGS[KEY].label}</h2>
      <TextField
        label={TEXT_SETTINGS[KEY].label}
        testid={`setting-${KEY}`}
        placeholder={`例如 ${TEXT_SETTINGS[KEY].placeholder}`}
        value={text()}
        onValue={setText}
        field={KEY}
        error={error()}
      >
        <span class="muted tk-hint">{TEXT_SETTINGS[KEY].help} 清空后保存即取消设置。</span>
      </TextField>
      <FormFooter testid="public-url" save={save} disabled={!loaded()} label="保存地址" />
    </form>
  );
}
