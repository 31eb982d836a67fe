import { For, type JSX } from 'solid-js';
import { PRESETS, type OverviewRange } from './overview-data';

/** 近7天 / 近30天 / 近90天, or any two Taipei days: a preset keeps following today. */
export default function RangeBar(props: {
  range: OverviewRange;
  from: string;
  to: string;
  onPreset: (days: number) => void;
  onDates: (from: string, to: string) => void;
}): JSX.Element {
  const active = (days: number): boolean => props.range.kind === 'preset' && props.range.days === days;
  return (
    <div class="ov-range" role="group" aria-label="统计区间">
      <For each={PRESETS}>
        {(days) => (
          <button
            type="button"
            class="btn"
            classList={{ 'btn-primary': active(days) }}
            aria-pressed={active(days)}
            data-testid={`overview-range-${days}`}
            onClick={() => props.onPreset(days)}
          >
            近{days}天
          </button>
        )}
      </For>
      <label>
        从
        <input
          class="input"
          type="date"
          data-testid="overview-from"
          value={props.from}
          onChange={(e) => props.onDates(e.currentTarget.value, props.to)}
        />
      </label>
      <label>
        到
        <input
          class="input"
          type="date"
          data-testid="overview-to"
          value={props.to}
          onChange={(e) => props.onDates(props.from, e.currentTarget.value)}
        />
      </label>
    </div>
  );
}
