import { createSignal, Show, type JSX } from 'solid-js';
import HealthIndicator from '../components/HealthIndicator';
import { errorText } from '../errors';
import { login } from '../session';

export default function LoginPage(): JSX.Element {
  const [username, setUsername] = createSignal('');
  const [password, setPassword] = createSignal('');
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const onSubmit = async (e: SubmitEvent): Promise<void> => {
    e.preventDefault();
    if (busy()) return;
    if (username().trim() === '' || password() === '') {
      setError('请输入用户名和密码');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await login(username().trim(), password());
    } catch (err) {
      setError(errorText(err));
      // Never leave a rejected password sitting in the field.
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="login-wrap">
      <form class="card login-card" data-testid="login-form" onSubmit={(e) => void onSubmit(e)} novalidate>
        <h1 class="login-title">cmautobuy 采购台</h1>
        <label class="field">
          <span class="field-label">用户名</span>
          <input
            class="input"
            name="username"
            autocomplete="username"
            data-testid="login-username"
            value={username()}
            onInput={(e) => setUsername(e.currentTarget.value)}
            autofocus
          />
        </label>
        <label class="field">
          <span class="field-label">密码</span>
          <input
            class="input"
            type="password"
            name="password"
            autocomplete="current-password"
            data-testid="login-password"
            value={password()}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <Show when={error()}>
          {(msg) => (
            <p class="form-error" role="alert" data-testid="login-error">
              {msg()}
            </p>
          )}
        </Show>
        <button type="submit" class="btn btn-primary btn-block" data-testid="login-submit" disabled={busy()}>
          {busy() ? '正在登录…' : '登录'}
        </button>
        <div class="login-foot">
          <HealthIndicator />
        </div>
      </form>
    </main>
  );
}
