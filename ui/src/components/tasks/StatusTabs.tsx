import { createSignal, For, Show, type JSX } from 'solid-js';
import { getTaskCounts } from '../../api/endpoints';
import { createPoll } from '../../lib/poll';
import { PURCHASE_STATUSES, STATUS_ZH } from './types';

/** the counts follow the list's own pace while tasks move */
const COUNTS_POLL_MS = 5_000;

interface Props {
  /** '' means all states. */
  value: string;
  onChange: (status: string) => void;
}

const TABS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: '全部' },
  ...PURCHASE_STATUSES.map((s) => ({ value: s, label: STATUS_ZH[s] })),
];

/** The status tabs, each with how many (listed) tasks are in it; hidden tasks are not counted. */
export default function StatusTabs(props: Props): JSX.Element {
  const [counts, setCounts] = createSignal<Record<string, number> | null>(null);
  createPoll(async () => setCounts((await getTaskCounts()).counts), COUNTS_POLL_MS, { immediate: true });
  const countOf = (value: string): number | null => {
    const c = counts();
    if (c === null) return null;
    return value === '' ? Object.values(c).reduce((a, b) => a + b, 0) : (c[value] ?? 0);
  };
  return (
    <div class="tk-tabs" role="tablist" aria-label="按状态筛选">
      <For each={TABS}>
        {(tab) => (
          <button
            type="button"
            role="tab"
            class="tk-tab"
            classList={{ active: props.value === tab.value }}
            aria-selected={props.value === tab.value}
            data-testid={`status-tab-${tab.value === '' ? 'ALL' : tab.value}`}
            onClick={() => props.onChange(tab.value)}
          >
            {tab.label}
            <Show when={countOf(tab.value)}>
              {(n) => (
                <span class="tk-tab-count" data-testid={`status-count-${tab.value === '' ? 'ALL' : tab.value}`}>
                  {n()}
                </span>
              )}
            </Show>
          </button>
        )}
      </For>
    </div>
  );
}
