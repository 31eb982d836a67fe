import { For, Show, type JSX } from 'solid-js';
import type { OverviewDay } from '../../api/money';
import { formatYuan } from '../../lib/money';
import { isQuietDay, stopsByLabel, stopTotal, sumKnown } from './overview-data';

/** A margin in yuan, red when it is a loss. */
function Margin(props: { cents: number | null }): JSX.Element {
  const negative = (): boolean => props.cents !== null && props.cents < 0;
  return (
    <span classList={{ 'ov-neg': negative() }} data-negative={negative() ? 'true' : undefined}>
      {formatYuan(props.cents)}
    </span>
  );
}

function StopsCell(props: { stops: Record<string, number> }): JSX.Element {
  return (
    <Show when={stopTotal(props.stops) > 0} fallback={<span class="muted">0</span>}>
      <strong>{stopTotal(props.stops)}</strong>
      <ul class="ov-stops">
        <For each={stopsByLabel(props.stops)}>
          {([label, n]) => (
            <li>
              {label} × {n}
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}

/** The range as one day: counts and amounts added up. */
function totalOf(days: readonly OverviewDay[]): OverviewDay {
  const count = (pick: (d: OverviewDay) => number): number => days.reduce((a, d) => a + pick(d), 0);
  const stops: Record<string, number> = {};
  for (const d of days) for (const [code, n] of Object.entries(d.stops)) stops[code] = (stops[code] ?? 0) + n;
  return {
    date: '合计',
    lines_in: count((d) => d.lines_in),
    live_purchases: count((d) => d.live_purchases),
    waiting_payment_count: count((d) => d.waiting_payment_count),
    waiting_payment_cny_cent: count((d) => d.waiting_payment_cny_cent),
    paid_count: count((d) => d.paid_count),
    paid_cny_cent: count((d) => d.paid_cny_cent),
    dry_runs: count((d) => d.dry_runs),
    stops,
    margin_cny_cent: sumKnown(days.map((d) => d.margin_cny_cent)),
  };
}

/** One day's cells; `data-col` names the figure for tests and engineers. */
function DayCells(props: { day: OverviewDay }): JSX.Element {
  const d = (): OverviewDay => props.day;
  return (
    <>
      <td class="tk-time">{d().date}</td>
      <td class="tk-num" data-col="lines_in">
        {d().lines_in}
      </td>
      <td class="tk-num" data-col="live_purchases">
        {d().live_purchases}
      </td>
      <td class="tk-num" data-col="waiting_payment_count">
        {d().waiting_payment_count}
      </td>
      <td class="tk-num" data-col="waiting_payment_cny_cent">
        {formatYuan(d().waiting_payment_cny_cent)}
      </td>
      <td class="tk-num" data-col="paid_count">
        {d().paid_count}
      </td>
      <td class="tk-num" data-col="paid_cny_cent">
        {formatYuan(d().paid_cny_cent)}
      </td>
      <td class="tk-num" data-col="dry_runs">
        {d().dry_runs}
      </td>
      <td class="ov-stops-cell" data-col="stops">
        <StopsCell stops={d().stops} />
      </td>
      <td class="tk-num" data-col="margin_cny_cent">
        <Margin cents={d().margin_cny_cent} />
      </td>
    </>
  );
}

function DayHead(): JSX.Element {
  const single = (text: string, num = true): JSX.Element => (
    <th rowspan="2" class={num ? 'tk-num' : undefined}>
      {text}
    </th>
  );
  return (
    <thead>
      <tr>
        {single('日期', false)}
        {single('新订单行')}
        {single('真实下单')}
        <th colspan="2" class="ov-group">
          到达待付款
        </th>
        <th colspan="2" class="ov-group">
          已付款
        </th>
        {single('试运行')}
        {single('停止（按原因）', false)}
        {single('当日毛利')}
      </tr>
      <tr>
        <th class="tk-num">笔数</th>
        <th class="tk-num">金额</th>
        <th class="tk-num">笔数</th>
        <th class="tk-num">金额</th>
      </tr>
    </thead>
  );
}

/** 每日明细: the newest day first, the range's totals at the foot. */
export default function DayTable(props: { days: readonly OverviewDay[] }): JSX.Element {
  return (
    <div class="tk-table-wrap">
      <table class="tk-table ov-table" data-testid="overview-day-table">
        <DayHead />
        <tbody>
          <For each={[...props.days].reverse()}>
            {(d) => (
              <tr data-testid="overview-day-row" data-date={d.date} classList={{ 'ov-quiet': isQuietDay(d) }}>
                <DayCells day={d} />
              </tr>
            )}
          </For>
        </tbody>
        <tfoot>
          <tr class="ov-total" data-testid="overview-day-total">
            <DayCells day={totalOf(props.days)} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
