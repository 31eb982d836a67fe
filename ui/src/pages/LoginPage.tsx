import { createSignal, type JSX } from 'solid-js';
import ErrorMessage from '../components/ErrorMessage';
import HealthIndicator from '../components/HealthIndicator';
import TextField from '../components/TextField';
import { createAction } from '../lib/action';
import { login } from '../session';

export default function LoginPage(): JSX.Element {
  const [username, setUsername] = createSignal('');
  const [password, setPassword] = createSignal('');
  const signIn = createAction(login, {
    failure: (_err, text) => {
      // Never leave a rejected password sitting in the field.
      setPassword('');
      return text;
    },
  });

  const onSubmit = (e: SubmitEvent): void => {
    e.preventDefault();
    if (signIn.busy()) return;
    if (username().trim() === '' || password() === '') return signIn.setError('请输入用户名和密码');
    void signIn.run(username().trim(), password());
  };

  return (
    <main class="login-wrap">
      <form class="card login-card" data-testid="login-form" onSubmit={onSubmit} novalidate>
        <h1 class="login-title">cmautobuy 采购台</h1>
        <TextField
          label="用户名"
          name="username"
          autocomplete="username"
          testid="login-username"
          value={username()}
          onValue={setUsername}
          autofocus
        />
        <TextField
          label="密码"
          type="password"
          name="password"
          autocomplete="current-password"
          testid="login-password"
          value={password()}
          onValue={setPassword}
        />
        <ErrorMessage testid="login-error" message={signIn.error()} />
        <button type="submit" class="btn btn-primary btn-block" data-testid="login-submit" disabled={signIn.busy()}>
          {signIn.busy() ? '正在登录…' : '登录'}
        </button>
        <div class="login-foot">
          <HealthIndicator />
        </div>
      </form>
    </main>
  );
}
