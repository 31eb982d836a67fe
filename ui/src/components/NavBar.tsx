import { For, Show, type JSX } from 'solid-js';
import { createPoll } from '../lib/poll';
import { currentPath, hrefFor } from '../router';
import { findRoute, NAV_ROUTES } from '../routes';
import { ATTENTION_POLL_MS, attentionItems, loadAttention } from './attention/attention-queue';

export default function NavBar(): JSX.Element {
  const activeKey = (): string | undefined => findRoute(currentPath())?.key;
  // 需处理 counts on every page, so a stop is seen without opening it
  createPoll(loadAttention, ATTENTION_POLL_MS, { immediate: true });
  const waiting = (): number => attentionItems()?.length ?? 0;
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
            <Show when={r.key === 'attention' && waiting() > 0}>
              <span class="nav-count" data-testid="nav-attention-count">
                {waiting()}
              </span>
            </Show>
          </a>
        )}
      </For>
    </nav>
  );
}
