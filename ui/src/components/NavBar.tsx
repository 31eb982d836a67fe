import { For, type JSX } from 'solid-js';
import { currentPath, hrefFor } from '../router';
import { findRoute, NAV_ROUTES } from '../routes';

export default function NavBar(): JSX.Element {
  const activeKey = (): string | undefined => findRoute(currentPath())?.key;
  return (
    <nav class="nav" aria-label="主导航">
      <For each={NAV_ROUTES}>
        {(r) => (
          <a
            class="nav-link"
            classList={{ active: activeKey() === r.key }}
            href={hrefFor(r.path)}
            data-testid={`nav-${r.key}`}
            aria-current={activeKey() === r.key ? 'page' : undefined}
          >
            {r.label}
          </a>
        )}
      </For>
    </nav>
  );
}
