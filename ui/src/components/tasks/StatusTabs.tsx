import { For, type JSX } from 'solid-js';
import { PURCHASE_STATUSES, STATUS_ZH } from './types';

interface Props {
  /** '' means all states. */
  value: string;
  onChange: (status: string) => void;
}

const TABS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: '全部' },
  ...PURCHASE_STATUSES.map((s) => ({ value: s, label: STATUS_ZH[s] })),
];

export default function StatusTabs(props: Props): JSX.Element {
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
          </button>
        )}
      </For>
    </div>
  );
}
