import { createSignal, onMount, Show, type JSX } from 'solid-js';
import { ApiError } from '../../api/client';
import { getSybAccount, saveSybAccount, type SybAccountView } from '../../api/endpoints';
import { errorText } from '../../errors';
import { formatTime } from '../../lib/time';
import FieldError from '../FieldError';
import FormFooter from '../FormFooter';

/** The admin's own refusal texts are for developers; the operator reads these per field. */
const FIELD_ZH: Readonly<Record<string, string>> = {
  url: '地址须以 http:// 或 https:// 开头，最长 500 个字符',
  username: '用户名不能为空，最长 200 个字符',
  password: '密码不能为空，最长 500 个字符',
};

/**
 * 顺运宝账号. The password is held in the admin's memory only (docs/syb-protocol.md): it is never
 * shown, only whether one is set, and after an admin restart it has to be entered again unless
 * the environment provides it. An empty password field leaves the current one as it is.
 */
export default function SybAccountForm(): JSX.Element {
  const [view, setView] = createSignal<SybAccountView | null>(null);
  const [url, setUrl] = createSignal('');
  const [username, setUsername] = createSignal('');
  const [password, setPassword] = createSignal('');
  const [errors, setErrors] = createSignal<Partial<Record<string, string>>>({});
  const [formError, setFormError] = createSignal<string | null>(null);
  const [notice, setNotice] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const show = (v: SybAccountView): void => {
    setView(v);
    setUrl(v.url ?? '');
    setUsername(v.username ?? '');
    setPassword('');
  };

  onMount(async () => {
    try {
      show(await getSybAccount());
    } catch (err) {
      setFormError(errorText(err));
    }
  });

  const onSubmit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const v = view();
    if (!v) return;
    setNotice(null);
    setFormError(null);
    const change: { url?: string; username?: string; password?: string } = {};
    const fieldErrors: Record<string, string> = {};
    const u = url().trim();
    if (u !== (v.url ?? '')) {
      if (!/^https?:\/\/\S+$/i.test(u) || u.length > 500) fieldErrors.url = FIELD_ZH.url ?? '';
      else change.url = u;
    }
    const name = username().trim();
    if (name !== (v.username ?? '')) {
      if (name === '' || name.length > 200) fieldErrors.username = FIELD_ZH.username ?? '';
      else change.username = name;
    }
    if (password() !== '') {
      if (password().length > 500) fieldErrors.password = FIELD_ZH.password ?? '';
      else change.password = password();
    }
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) return;
    if (Object.keys(change).length === 0) {
      setNotice('没有改动');
      return;
    }
    setBusy(true);
    try {
      show(await saveSybAccount(change));
      setNotice('已保存，下次同步起生效');
    } catch (err) {
      const fields = err instanceof ApiError && err.code === 'VALIDATION_FAILED' ? refusedFields(err.details) : [];
      if (fields.length > 0) setErrors(Object.fromEntries(fields.map((f) => [f, FIELD_ZH[f] ?? '内容不符合要求'])));
      else setFormError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card tk-section tk-form" data-testid="syb-form" onSubmit={(e) => void onSubmit(e)} novalidate>
      <h2 class="tk-section-title">顺运宝账号</h2>
      <Show when={view()}>
        {(v) => (
          <p class="muted" data-testid="syb-state" data-configured={String(v().configured)}>
            {v().configured ? '账号完整，订单按计划自动同步。' : '账号未填完整，订单同步已暂停。'}
            <Show when={v().session_expires_at}>{(at) => <> 当前登录有效至 {formatTime(at())}。</>}</Show>
          </p>
        )}
      </Show>
      <label class="field">
        <span class="field-label">地址</span>
        <input
          class="input"
          data-testid="syb-url"
          placeholder="例如 https://syb.example.com"
          value={url()}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <FieldError field="syb-url" message={errors().url} />
      </label>
      <label class="field">
        <span class="field-label">用户名</span>
        <input
          class="input"
          data-testid="syb-username"
          autocomplete="off"
          value={username()}
          onInput={(e) => setUsername(e.currentTarget.value)}
        />
        <FieldError field="syb-username" message={errors().username} />
      </label>
      <label class="field">
        <span class="field-label">
          密码{' '}
          <span class="muted" data-testid="syb-password-state">
            {view()?.password_set ? '已设置' : '未设置'}
          </span>
        </span>
        <input
          class="input"
          type="password"
          autocomplete="new-password"
          data-testid="syb-password"
          placeholder={view()?.password_set ? '已设置；留空则不修改' : '请输入密码'}
          value={password()}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <span class="muted tk-hint">
          密码只保存在管理服务的内存中，不写入磁盘；管理服务重启后需要重新填写（除非已在环境变量中配置）。
        </span>
        <FieldError field="syb-password" message={errors().password} />
      </label>
      <FormFooter
        testid="syb"
        error={formError()}
        notice={notice()}
        busy={busy()}
        disabled={view() === null}
        label="保存账号"
      />
    </form>
  );
}

function refusedFields(details: unknown): string[] {
  if (typeof details !== 'object' || details === null || !('issues' in details) || !Array.isArray(details.issues))
    return [];
  return (details.issues as unknown[]).flatMap((i) =>
    typeof i === 'object' && i !== null && 'path' in i && typeof i.path === 'string' ? [i.path] : [],
  );
}
