import { createEffect, createSignal, For, on, Show, type JSX } from 'solid-js';
import type { MoneyLine } from '../../../../domain/money-views';
import { listMoneyLines, moneyExportUrl, type MoneyLineSort } from '../../api/money';
import { errorText } from '../../errors';
import { formatBp, formatTwd, formatYuan } from '../../lib/money';
import ErrorMessage from '../ErrorMessage';
import RangeBar from '../overview/RangeBar';
import { rangeDays, rangeProblem, type OverviewRange } from '../overview/overview-data';
import { isPurchaseStatus, statusZh } from '../tasks/types';

const PAGE = 100;

/**
 * 毛利: each order line of a range beside what it cost — sale in TWD and CNY, fees, cost (the
 * purchase's confirmed total, or the draft's cap marked 预估), margin; sorted and filtered by
 * margin, a loss in red; and the export of the same range for the books.
 */
export default function MarginPanel(): JSX.Element {
  const [range, setRange] = createSignal<OverviewRange>({ kind: 'preset', days: 30 });
  const [sort, setSort] = createSignal<MoneyLineSort>('shipped');
  const [lossOnly, setLossOnly] = createSignal(false);
  const [items, setItems] = createSignal<MoneyLine[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [rateSet, setRateSet] = createSignal(true);
  const [error, setError] = createSignal<string | null>(null);
  const days = () => rangeDays(range());
  let load = 0;

  const read = async (after: string | null) => {
    const problem = rangeProblem(days().from, days().to);
    if (problem) return setError(problem);
    const mine = ++load;
    try {
      const page = await listMoneyLines({ ...days(), sort: sort(), loss: lossOnly(), limit: PAGE, cursor: after });
      if (mine !== load) return;
      setItems(after ? [...items(), ...page.items] : page.items);
      setCursor(page.next_cursor);
      setRateSet(page.rate_set);
      setError(null);
    } catch (err) {
      if (mine === load) setError(errorText(err));
    }
  };
  createEffect(on([days, sort, lossOnly], () => void read(null)));

  return (
    <section class="card tk-section" data-testid="margin-panel">
      <h2 class="tk-section-title">毛利</h2>
      <RangeBar
        range={range()}
        from={days().from}
        to={days().to}
        onPreset={(n) => setRange({ kind: 'preset', days: n })}
        onDates={(from, to) => setRange({ kind: 'custom', from, to })}
      />
      <MarginControls sort={sort()} onSort={setSort} lossOnly={lossOnly()} onLossOnly={setLossOnly} range={days()} />
      <Show when={!rateSet()}>
        <p class="form-error" data-testid="margin-no-rate">
          未设置汇率：人民币售价与毛利不计算。请到「设置 → 金额」填写新台币兑人民币汇率。
        </p>
      </Show>
      <ErrorMessage testid="margin-error" message={error()} />
      <MarginTable items={items()} />
      <Show when={items().length === 0 && error() === null}>
        <p class="muted">这段时间没有订单行。</p>
      </Show>
      <Show when={cursor()}>
        {(c) => (
          <button type="button" class="btn" data-testid="margin-more" onClick={() => void read(c())}>
            加载更多
          </button>
        )}
      </Show>
    </section>
  );
}

/** The lines with their money; a loss in red, an estimated cost marked 预估. */
function MarginTable(props: { items: MoneyLine[] }): JSX.Element {
  return (
    <table class="table" data-testid="margin-table">
      <thead>
        <tr>
          <th>发货日期</th>
          <th>顺运宝单号</th>
          <th>商品</th>
          <th>数量</th>
          <th>售价（新台币）</th>
          <th>售价（人民币）</th>
          <th>费用</th>
          <th>成本</th>
          <th>毛利</th>
          <th>毛利率</th>
          <th>状态</th>
        </tr>
      </thead>
      <tbody>
        <For each={props.items}>
          {(l) => (
            <tr data-testid="margin-row" data-syb-id={l.syb_id}>
              <td>{l.shipped_on}</td>
              <td class="tk-mono">{l.syb_order_no}</td>
              <td>{l.title ?? '—'}</td>
              <td>{l.quantity}</td>
              <td title="单价 × 数量">{formatTwd(l.sale_twd_cent === null ? null : l.sale_twd_cent * l.quantity)}</td>
              <td>{formatYuan(l.sale_cny_cent)}</td>
              <td>{formatYuan(l.fees_cny_cent)}</td>
              <td>
                {formatYuan(l.cost_cny_cent)}
                <Show when={l.cost_source === 'estimate'}>
                  <span class="muted" title="尚未下单：按草稿的最高总价估算">
                    （预估）
                  </span>
                </Show>
              </td>
              <td classList={{ 'form-error': (l.margin_cny_cent ?? 0) < 0 }} data-testid="margin-value">
                {formatYuan(l.margin_cny_cent)}
              </td>
              <td classList={{ 'form-error': (l.margin_bp ?? 0) < 0 }}>{formatBp(l.margin_bp)}</td>
              <td>{l.task_status && isPurchaseStatus(l.task_status) ? statusZh(l.task_status) : '未生成任务'}</td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}

/** Sort, 只看亏损, and the export of the same range for the books. */
function MarginControls(props: {
  sort: MoneyLineSort;
  onSort: (s: MoneyLineSort) => void;
  lossOnly: boolean;
  onLossOnly: (v: boolean) => void;
  range: { from: string; to: string };
}): JSX.Element {
  return (
    <div class="ov-range">
      <label>
        排序
        <select
          class="input"
          data-testid="margin-sort"
          value={props.sort}
          onChange={(e) => props.onSort(e.currentTarget.value as MoneyLineSort)}
        >
          <option value="shipped">发货时间（新→旧）</option>
          <option value="margin">毛利（低→高）</option>
          <option value="-margin">毛利（高→低）</option>
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          data-testid="margin-loss"
          checked={props.lossOnly}
          onChange={(e) => props.onLossOnly(e.currentTarget.checked)}
        />
        只看亏损
      </label>
      <a class="btn" data-testid="money-export-xlsx" href={moneyExportUrl('xlsx', props.range)}>
        导出 Excel
      </a>
      <a class="btn" data-testid="money-export-csv" href={moneyExportUrl('csv', props.range)}>
        导出 CSV
      </a>
    </div>
  );
}
