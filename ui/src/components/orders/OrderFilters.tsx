import { For, type JSX } from 'solid-js';
import { MATCH_STATE_ZH, MATCH_STATES, type MatchState } from '../../../../domain/syb';

export interface OrderFilterValues {
  q: string;
  match: MatchState | '';
  /** 'true' | 'false' | '' as in the API */
  has_task: string;
  date_from: string;
  date_to: string;
}

/** The order-date range's two ends. */
const DATE_ENDS = [
  { key: 'date_from', label: '下单日期', testid: 'order-date-from' },
  { key: 'date_to', label: '至', testid: 'order-date-to' },
] as const;

/** The 订单 toolbar's filters: match state, with or without a task, the order-date range. */
export default function OrderFilters(props: {
  value: OrderFilterValues;
  onChange: (next: Partial<OrderFilterValues>) => void;
}): JSX.Element {
  return (
    <>
      <select
        class="input"
        data-testid="order-filter-match"
        value={props.value.match}
        onChange={(e) => props.onChange({ match: e.currentTarget.value as MatchState | '' })}
      >
        <option value="">全部匹配状态</option>
        <For each={MATCH_STATES}>{(s) => <option value={s}>{MATCH_STATE_ZH[s]}</option>}</For>
      </select>
      <select
        class="input"
        data-testid="order-filter-task"
        value={props.value.has_task}
        onChange={(e) => props.onChange({ has_task: e.currentTarget.value })}
      >
        <option value="">有无采购任务（全部）</option>
        <option value="false">未生成采购任务</option>
        <option value="true">已生成采购任务</option>
      </select>
      <For each={DATE_ENDS}>
        {(end) => (
          <label>
            {end.label}
            <input
              class="input"
              type="date"
              data-testid={end.testid}
              value={props.value[end.key]}
              onChange={(e) => props.onChange({ [end.key]: e.currentTarget.value })}
            />
          </label>
        )}
      </For>
    </>
  );
}
