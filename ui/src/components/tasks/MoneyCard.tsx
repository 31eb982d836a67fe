import { Show, type JSX } from 'solid-js';
import type { TaskMoney } from '../../../../domain/money-views';
import { formatBp, formatTwd, formatYuan } from '../../lib/money';

/** The rate as a person reads it: 225000 ppm → 0.225. */
function rateText(ppm: number): string {
  return String(ppm / 1_000_000);
}

/**
 * 金额 on the task page: what the order line sold for, in TWD and CNY, the fees, this task's cost
 * (the confirmed total once it reached 待付款, else its cap marked 预估) and the margin — a loss
 * in red. The rates are the ones kept when it reached 待付款, else today's.
 */
export default function MoneyCard(props: { money: TaskMoney }): JSX.Element {
  const m = (): TaskMoney => props.money;
  const loss = (): boolean => (m().margin_cny_cent ?? 0) < 0;
  return (
    <div class="card tk-section" data-testid="task-money">
      <h2 class="tk-section-title">金额</h2>
      <Show when={m().rate_ppm === null}>
        <p class="muted" data-testid="task-money-no-rate">
          {m().rates_frozen
            ? '这笔订单到达待付款时尚未设置汇率，不计算人民币金额与毛利。'
            : '未设置汇率：请到「设置 → 金额」填写新台币兑人民币汇率，才能计算毛利。'}
        </p>
      </Show>
      <dl class="tk-facts">
        <dt>售价（新台币）</dt>
        <dd>
          {formatTwd(m().sale_twd_cent === null ? null : m().sale_twd_cent! * m().quantity)}
          <span class="muted">
            （单价 {formatTwd(m().sale_twd_cent)} × {m().quantity}）
          </span>
        </dd>
        <dt>汇率</dt>
        <dd>
          {m().rate_ppm === null ? '—' : rateText(m().rate_ppm!)}
          <span class="muted">{m().rates_frozen ? '（到达待付款时的汇率）' : '（当前设置）'}</span>
        </dd>
        <dt>售价（人民币）</dt>
        <dd data-testid="task-money-sale">{formatYuan(m().sale_cny_cent)}</dd>
        <dt>费用</dt>
        <dd>{formatYuan(m().fees_cny_cent)}</dd>
        <dt>成本</dt>
        <dd data-testid="task-money-cost">
          {formatYuan(m().cost_cny_cent)}
          <Show when={m().cost_source === 'estimate'}>
            <span class="muted">（预估：按最高总价）</span>
          </Show>
        </dd>
        <dt>毛利</dt>
        <dd classList={{ 'form-error': loss() }} data-testid="task-money-margin">
          {formatYuan(m().margin_cny_cent)}（{formatBp(m().margin_bp)}）
        </dd>
      </dl>
    </div>
  );
}
