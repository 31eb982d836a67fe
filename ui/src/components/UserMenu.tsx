import { Show, type JSX } from 'solid-js';
import { createAction } from '../lib/action';
import { logout } from '../session';
import ActionButton from './ActionButton';

interface Props {
  username: string | undefined;
}

export default function UserMenu(props: Props): JSX.Element {
  // logout() leaves even when the admin cannot be reached, so there is no error to show
  const leave = createAction(logout);
  return (
    <div class="user-menu">
      <Show when={props.username}>
        {(name) => (
          <span class="user-name" data-testid="current-user" title="当前登录用户">
            {name()}
          </span>
        )}
      </Show>
      <ActionButton action={leave} class="btn btn-ghost" testid="logout">
        退出
      </ActionButton>
    </div>
  );
}
