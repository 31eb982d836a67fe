import { createSignal, Show, type JSX } from 'solid-js';
import { logout } from '../session';

interface Props {
  username: string | undefined;
}

export default function UserMenu(props: Props): JSX.Element {
  const [leaving, setLeaving] = createSignal(false);
  const onLogout = async (): Promise<void> => {
    setLeaving(true);
    try {
      await logout();
    } finally {
      setLeaving(false);
    }
  };
  return (
    <div class="user-menu">
      <Show when={props.username}>
        {(name) => (
          <span class="user-name" data-testid="current-user" title="当前登录用户">
            {name()}
          </span>
        )}
      </Show>
      <button
        type="button"
        class="btn btn-ghost"
        data-testid="logout"
        disabled={leaving()}
        onClick={() => void onLogout()}
      >
        退出
      </button>
    </div>
  );
}
