import { For, Show, type JSX } from 'solid-js';
import { formatTime } from '../../lib/time';
import { isTimelineEntry, statusZh, type TimelineEntry } from './types';

export default function Timeline(props: { entries: readonly unknown[] }): JSX.Element {
  // Entries are the workflow's own records; anything not shaped like one is skipped, not guessed.
  const entries = (): TimelineEntry[] => props.entries.filter(isTimelineEntry);
  return (
    <div class="card tk-section" data-testid="timeline">
      <h2 class="tk-section-title">执行记录</h2>
      <Show when={entries().length > 0} fallback={<p class="muted">暂无记录</p>}>
        <ol class="tk-timeline">
          <For each={entries()}>
            {(e) => (
              <li data-testid="timeline-entry" data-status={e.status}>
                <span class="tk-time">{formatTime(e.at)}</span>
                <strong>{statusZh(e.status)}</strong>
                <Show when={e.reason}>{(r) => <span class="tk-mono">{r()}</span>}</Show>
                <Show when={e.detail}>{(d) => <span class="muted">{d()}</span>}</Show>
                <Show when={e.actor}>{(a) => <span class="muted">操作人 {a()}</span>}</Show>
              </li>
            )}
          </For>
        </ol>
      </Show>
    </div>
  );
}
