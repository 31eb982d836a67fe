import { createSignal, onMount } from 'solid-js';
import { ApiError } from '../../api/client';
import { getSybAccount, saveSybAccount, type SybAccountView } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction } from '../../lib/action';

/** The admin's own refusal texts are for developers; the operator reads these per field. */
const FIELD_ZH: Readonly<Record<string, string>> = {
  url: '地址须以 http:// 或 https:// 开头，最长 500 个字符',
  username: '用户名不能为空，最长 200 个字符',
  password: '密码不能为空，最长 500 个字符',
};

type AccountChange = { url?: string; username?: string; password?: string };

/** What the operator changed against what is saved, each field checked; an empty password keeps the current one. */
function accountChange(
  saved: SybAccountView,
  typed: { url: string; username: string; password: string },
): { change: AccountChange; errors: Record<string, string> } {
  const change: AccountChange = {};
  const errors: Record<string, string> = {};
  const u = typed.url.trim();
  if (u !== (saved.url ?? '')) {
    if (!/^https?:\/\/\S+$/i.test(u) || u.length > 500) errors.url = FIELD_ZH.url ?? '';
    else change.url = u;
  }
  const name = typed.username.trim();
  if (name !== (saved.username ?? '')) {
    if (name === '' || name.length > 200) errors.username = FIELD_ZH.username ?? '';
    else change.username = name;
  }
  if (typed.password !== '') {
    if (typed.password.length > 500) errors.password = FIELD_ZH.password ?? '';
    else change.password = typed.password;
  }
  return { change, errors };
}

function refusedFields(details: unknown): string[] {
  if (typeof details !== 'object' || details === null || !('issues' in details) || !Array.isArray(details.issues))
    return [];
  return (details.issues as unknown[]).flatMap((i) =>
    typeof i === 'object' && i !== null && 'path' in i && typeof i.path === 'string' ? [i.path] : [],
  );
}

/** 顺运宝账号's data: the saved account, the fields as typed, and saving only what changed. */
export function createSybAccount() {
  const [view, setView] = createSignal<SybAccountView | null>(null);
  const [url, setUrl] = createSignal('');
  const [username, setUsername] = createSignal('');
  const [password, setPassword] = createSignal('');
  const [errors, setErrors] = createSignal<Partial<Record<string, string>>>({});

  const show = (v: SybAccountView): void => {
    setView(v);
    setUrl(v.url ?? '');
    setUsername(v.username ?? '');
    setPassword('');
  };

  /** What the save says: 没有改动, or nothing when a field is refused here (null) or there. */
  const save = createAction(
    async (v: SybAccountView): Promise<string | null> => {
      const { change, errors: fieldErrors } = accountChange(v, {
        url: url(),
        username: username(),
        password: password(),
      });
      setErrors(fieldErrors);
      if (Object.keys(fieldErrors).length > 0) return null;
      if (Object.keys(change).length === 0) return '没有改动';
      show(await saveSybAccount(change));
      return '已保存，下次同步起生效';
    },
    {
      success: (said) => said,
      failure: (err, text) => {
        const fields = err instanceof ApiError && err.code === 'VALIDATION_FAILED' ? refusedFields(err.details) : [];
        if (fields.length === 0) return text;
        setErrors(Object.fromEntries(fields.map((f) => [f, FIELD_ZH[f] ?? '内容不符合要求'])));
        return null;
      },
    },
  );

  onMount(async () => {
    try {
      show(await getSybAccount());
    } catch (err) {
      save.setError(errorText(err));
    }
  });

  const submit = (e: Event): void => {
    e.preventDefault();
    const v = view();
    if (v) void save.run(v);
  };

  const fields = { url, setUrl, username, setUsername, password, setPassword };
  return { view, ...fields, errors, save, submit };
}
