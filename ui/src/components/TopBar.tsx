import type { JSX } from 'solid-js';
import { DEFAULT_ROUTE, hrefFor } from '../router';
import HealthIndicator from './HealthIndicator';
import NavBar from './NavBar';
import UserMenu from './UserMenu';

interface Props {
  username: string | undefined;
}

export default function TopBar(props: Props): JSX.Element {
  return (
    <header class="topbar">
      <a class="brand" href={hrefFor(DEFAULT_ROUTE)} data-testid="brand">
        cmautobuy 采购台
      </a>
      <NavBar />
      <div class="topbar-right">
        <HealthIndicator />
        <UserMenu username={props.username} />
      </div>
    </header>
  );
}
