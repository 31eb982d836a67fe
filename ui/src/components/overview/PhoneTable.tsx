import { For, Show, type JSX } from 'solid-js';
import type { OverviewPhone } from '../../api/money';
import { formatYuan } from '../../lib/money';
import { phoneName } from './overview-charts';
import { busyText } from './overview-data';

/** 手机: what waits to be paid on each phone (the amounts confirmed at 提交订单), and how busy it was. */
export default function PhoneTable(props: { phones: readonly OverviewPhone[] }): JSX.Element {
  return (
    <Show
      when={props.phones.length > 0}
      fallback={
        <p class="muted" data-testid="overview-phone-empty">
          这段时间没有手机采购，也没有待付款的订单。
        </p>
      }
    >
      <div class="tk-table-wrap">
        <table class="tk-table ov-table" data-testid="overview-phone-table">
          <thead>
            <tr>
              <th>手机</th>
              <th class="tk-num">待付款笔数</th>
              <th class="tk-num">待付款金额</th>
              <th class="tk-num">采购次数</th>
              <th class="tk-num">忙碌时长</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.phones}>
              {(p) => (
                <tr data-testid="overview-phone-row" data-device-id={p.device_id}>
                  <td class="tk-title">{phoneName(p)}</td>
                  <td class="tk-num" data-col="waiting_payment_count">
                    {p.waiting_payment_count}
                  </td>
                  <td class="tk-num" data-col="waiting_payment_cny_cent">
                    {formatYuan(p.waiting_payment_cny_cent)}
                  </td>
                  <td class="tk-num" data-col="purchases">
                    {p.purchases}
                  </td>
                  <td class="tk-num" data-col="busy_seconds">
                    {busyText(p.busy_seconds)}
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
    </Show>
  );
}
