import { batch, createEffect, createMemo, createSignal, on, Show, type JSX } from 'solid-js';
import { query } from '../api/client';
import { getMoneyOverview, type MoneyOverview } from '../api/money';
import ErrorMessage from '../components/ErrorMessage';
import DayTable from '../components/overview/DayTable';
import OverviewChart from '../components/overview/OverviewChart';
import { phonesChartHeight, phonesOption, purchasesOption, stopsOption } from '../components/overview/overview-charts';
import {
  rangeDays,
  rangeFromQuery,
  rangeProblem,
  todayTaipei,
  type OverviewRange,
} from '../components/overview/overview-data';
import PhoneTable from '../components/overview/PhoneTable';
import RangeBar from '../components/overview/RangeBar';
import '../components/overview/overview.css';
import '../components/tasks/tasks.css';
import { errorText } from '../errors';
import { createPoll } from '../lib/poll';
import { formatTime } from '../lib/time';
import { navigate } from '../router';
import { routeQuery } from '../route-table';

const OVERVIEW_POLL_MS = 10_000;

const sameSpan = (a: { from: string; to: string }, b: { from: string; to: string }): boolean =>
  a.from === b.from && a.to === b.to;

/** 概览: per Taipei day what came in, was bought, paid and stopped, and what waits on each phone. */
export default function OverviewPage(): JSX.Element {
  // the range lives in the hash, so a reload or a trip through login shows the same days
  const range = (): OverviewRange => rangeFromQuery(routeQuery());
  const [today, setToday] = createSignal(todayTaipei());
  const span = createMemo(() => rangeDays(range(), today()), undefined, { equals: sameSpan });
  const problem = (): string | null => rangeProblem(span().from, span().to);
  const [data, setData] = createSignal<MoneyOverview | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [loadedAt, setLoadedAt] = createSignal<string | null>(null);

  // A slower answer for an older range must not overwrite the newer one.
  let asked = 0;
  const load = async (): Promise<void> => {
    setToday(todayTaipei()); // a preset moves on at Taipei midnight
    const { from, to } = span();
    if (problem() !== null) return;
    const mine = ++asked;
    try {
      const res = await getMoneyOverview(from, to);
      if (mine !== asked) return;
      batch(() => {
        setData(res);
        setError(null);
        setLoadedAt(new Date().toISOString());
      });
    } catch (err) {
      if (mine === asked) setError(errorText(err));
    }
  };
  createEffect(
    on(span, () => {
      setData(null);
      void load();
    }),
  );
  createPoll(load, OVERVIEW_POLL_MS);

  const setPreset = (days: number): void => navigate(`/overview${query({ days })}`);
  const setDates = (from: string, to: string): void => navigate(`/overview${query({ from, to })}`);

  return (
    <section class="page" data-testid="page-overview">
      <div class="tk-head">
        <div>
          <h1 class="page-title">概览</h1>
          <p class="page-summary">
            按台北日期统计每天的新订单、下单、待付款、付款和停止，以及每台手机上待付的钱；每 10 秒自动刷新。
          </p>
        </div>
        <span class="muted" data-testid="overview-loaded-at">
          {loadedAt() ? `更新于 ${formatTime(loadedAt())}` : ''}
        </span>
      </div>
      <RangeBar range={range()} from={span().from} to={span().to} onPreset={setPreset} onDates={setDates} />
      <ErrorMessage testid="overview-range-error" message={problem()} />
      <ErrorMessage testid="overview-error" message={error()} />
      <Show when={data()} fallback={<p class="muted">{problem() === null ? '正在加载…' : ''}</p>}>
        {(d) => <OverviewBody data={d()} />}
      </Show>
    </section>
  );
}

function OverviewBody(props: { data: MoneyOverview }): JSX.Element {
  return (
    <>
      <Show when={!props.data.rate_set}>
        <p class="tk-warn ov-rate-hint" role="status" data-testid="overview-rate-hint">
          未设置汇率：毛利与人民币金额不计算。请到「设置」填写 money.twd_to_cny_rate_ppm（新台币兑人民币汇率）
        </p>
      </Show>
      <div class="ov-charts">
        <OverviewChart
          class="ov-wide"
          testid="overview-chart-purchases"
          title="每日采购与毛利"
          option={purchasesOption(props.data.days)}
        />
        <OverviewChart testid="overview-chart-stops" title="停止原因" option={stopsOption(props.data.days)} />
        <OverviewChart
          testid="overview-chart-phones"
          title="各手机待付款金额"
          option={phonesOption(props.data.phones)}
          height={phonesChartHeight(props.data.phones)}
        />
      </div>
      <h2 class="ov-section-title">每日明细</h2>
      <DayTable days={props.data.days} />
      <h2 class="ov-section-title">手机</h2>
      <PhoneTable phones={props.data.phones} />
    </>
  );
}
