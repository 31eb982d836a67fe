import { createResource, Match, Show, Switch, type JSX } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { ApiError } from './api/client';
import TopBar from './components/TopBar';
import { errorText } from './errors';
import LoginPage from './pages/LoginPage';
import NotFoundPage from './pages/NotFoundPage';
import { currentPath, LOGIN_ROUTE } from './router';
import { findRoute } from './routes';
import { fetchMe, sessionEpoch, type Me } from './session';

export default function App(): JSX.Element {
  const onLogin = (): boolean => currentPath() === LOGIN_ROUTE;

  // Keyed on the epoch so login/logout refetch; `false` on the login page, where a 401 from
  // /api/me would only redirect to the page we are already on.
  const [me, { refetch }] = createResource(
    () => (onLogin() ? false : sessionEpoch() + 1),
    () => fetchMe(),
  );

  // Reading a resource in the error state throws, so every read goes through its state.
  const user = (): Me | undefined => (me.state === 'ready' || me.state === 'refreshing' ? me.latest : undefined);

  const page = (): JSX.Element => {
    const r = findRoute(currentPath());
    return r ? <Dynamic component={r.page} /> : <NotFoundPage />;
  };

  // A 401 has already sent us to login; any other failure (admin down, 500) stays here with a
  // retry, because the health indicator already explains what is wrong.
  const loadError = (): string | null => {
    if (me.state !== 'errored') return null;
    const err: unknown = me.error;
    if (err instanceof ApiError && err.status === 401) return null;
    return errorText(err);
  };

  return (
    <Show when={!onLogin()} fallback={<LoginPage />}>
      <div class="shell">
        <TopBar username={user()?.username} />
        <main class="content">
          <Switch
            fallback={
              <p class="muted" data-testid="loading">
                正在加载…
              </p>
            }
          >
            <Match when={loadError()}>
              {(msg) => (
                <div class="card error-card" role="alert" data-testid="load-error">
                  <p>无法确认登录状态：{msg()}</p>
                  <button type="button" class="btn" onClick={() => void refetch()}>
                    重试
                  </button>
                </div>
              )}
            </Match>
            <Match when={user()}>{page()}</Match>
          </Switch>
        </main>
      </div>
    </Show>
  );
}
