import { For, Show, type JSX } from 'solid-js';
import type { OrderLine } from '../../api/endpoints';
import { formatTwd } from '../../lib/money';
import { formatTime } from '../../lib/time';
import { hrefFor } from '../../router';
import StatusBadge from '../StatusBadge';
import MatchBadge from './MatchBadge';
import SkuCell from './SkuCell';

interface Props {
  lines: readonly OrderLine[];
  isSelected: (sybId: string) => boolean;
  onToggle: (line: OrderLine, selected: boolean) => void;
  onLineChanged: (line: OrderLine) => void;
}

export default function OrderTable(props: Props): JSX.Element {
  return (
    <div class="tk-table-wrap">
      <table class="tk-table" data-testid="order-table">
        <thead>
          <tr>
            <th class="tk-check" />
            <th>顺运宝订单号</th>
            <th>商品</th>
            <th>规格</th>
            <th class="tk-num">数量</th>
            <th class="tk-num">金额</th>
            <th>匹配</th>
            <th>虾皮 SKU</th>
            <th>采购任务</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.lines}>
            {(line) => (
              <tr
                data-testid="order-row"
                data-syb-id={line.syb_id}
                data-match={line.match_state}
                classList={{ selected: props.isSelected(line.syb_id) }}
              >
                <td class="tk-check">
                  <input
                    type="checkbox"
                    aria-label={`选择订单明细 ${line.syb_id}`}
                    data-testid="order-select"
                    checked={props.isSelected(line.syb_id)}
                    onChange={(e) => props.onToggle(line, e.currentTarget.checked)}
                  />
                </td>
                <td>
                  <span class="tk-mono" data-testid="order-no">
                    {line.syb_order_no}
                  </span>
                  <span class="or-sub">{formatTime(line.created_at)}</span>
                </td>
                <td class="or-wrap">
                  {line.title ?? '—'}
                  <span class="or-sub">商品ID {line.shopee_goods_id}</span>
                </td>
                <td class="or-wrap" data-testid="order-spec">
                  {line.product_spec ?? '—'}
                </td>
                <td class="tk-num" data-testid="order-quantity">
                  {line.quantity}
                </td>
                <td class="tk-num" data-testid="order-price">
                  {formatTwd(line.price_twd_cent)}
                </td>
                <td>
                  <MatchBadge state={line.match_state} />
                  <Show when={line.spec_mismatch}>
                    {' '}
                    <span
                      class="or-mismatch"
                      data-testid="order-spec-mismatch"
                      title="所选虾皮规格与订单规格不一致（已确认）"
                    >
                      规格不一致
                    </span>
                  </Show>
                  <Show when={line.data_problem}>
                    {(p) => (
                      <span class="or-problem" data-testid="order-data-problem">
                        {p()}
                      </span>
                    )}
                  </Show>
                </td>
                <td>
                  <SkuCell line={line} onChanged={props.onLineChanged} />
                </td>
                <td>
                  <Show when={line.task_id} fallback={<span class="muted">—</span>}>
                    {(taskId) => (
                      <span class="or-sku">
                        <a
                          class="tk-mono"
                          href={hrefFor(`/tasks/${encodeURIComponent(taskId())}`)}
                          data-testid="order-task-link"
                        >
                          {taskId()}
                        </a>
                        <Show when={line.task_status}>{(s) => <StatusBadge status={s()} />}</Show>
                      </span>
                    )}
                  </Show>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <Show when={props.lines.length === 0}>
        <p class="muted tk-empty" data-testid="order-empty">
          没有符合条件的订单明细
        </p>
      </Show>
    </div>
  );
}
