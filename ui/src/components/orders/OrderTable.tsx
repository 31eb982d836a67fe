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
            <th class="tk-num" title="顾客付的单价；数量大于 1 时下方是这一行的小计">
              单价（新台币）
            </th>
            <th>匹配</th>
            <th>虾皮 SKU</th>
            <th>采购任务</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.lines}>
            {(line) => (
              <OrderRow
                line={line}
                selected={props.isSelected(line.syb_id)}
                onToggle={(on) => props.onToggle(line, on)}
                onLineChanged={props.onLineChanged}
              />
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

function OrderRow(props: {
  line: OrderLine;
  selected: boolean;
  onToggle: (selected: boolean) => void;
  onLineChanged: (line: OrderLine) => void;
}): JSX.Element {
  return (
    <tr
      data-testid="order-row"
      data-syb-id={props.line.syb_id}
      data-match={props.line.match_state}
      classList={{ selected: props.selected }}
    >
      <td class="tk-check">
        <input
          type="checkbox"
          aria-label={`选择订单明细 ${props.line.syb_id}`}
          data-testid="order-select"
          checked={props.selected}
          onChange={(e) => props.onToggle(e.currentTarget.checked)}
        />
      </td>
      <td>
        <span class="tk-mono" data-testid="order-no">
          {props.line.syb_order_no}
        </span>
        <span class="or-sub">{formatTime(props.line.created_at)}</span>
      </td>
      <td class="or-wrap">
        {props.line.title ?? '—'}
        <span class="or-sub">商品ID {props.line.shopee_goods_id}</span>
      </td>
      <td class="or-wrap" data-testid="order-spec">
        {props.line.product_spec ?? '—'}
      </td>
      <td class="tk-num" data-testid="order-quantity">
        {props.line.quantity}
      </td>
      <td class="tk-num">
        <span data-testid="order-price">{formatTwd(props.line.price_twd_cent)}</span>
        <Show when={props.line.quantity > 1 && props.line.price_twd_cent !== null}>
          <span class="or-sub" data-testid="order-line-total">
            小计 {formatTwd((props.line.price_twd_cent ?? 0) * props.line.quantity)}
          </span>
        </Show>
      </td>
      <MatchCell line={props.line} />
      <td>
        <SkuCell line={props.line} onChanged={props.onLineChanged} />
      </td>
      <TaskCell line={props.line} />
    </tr>
  );
}

/** 匹配: how far the line is from a purchase, a confirmed spec mismatch, a data problem. */
function MatchCell(props: { line: OrderLine }): JSX.Element {
  return (
    <td>
      <MatchBadge state={props.line.match_state} />
      <Show when={props.line.spec_mismatch}>
        {' '}
        <span class="or-mismatch" data-testid="order-spec-mismatch" title="所选虾皮规格与订单规格不一致（已确认）">
          规格不一致
        </span>
      </Show>
      <Show when={props.line.data_problem}>
        {(p) => (
          <span class="or-problem" data-testid="order-data-problem">
            {p()}
          </span>
        )}
      </Show>
    </td>
  );
}

/** 采购任务: the line's task and its state, when it has one. */
function TaskCell(props: { line: OrderLine }): JSX.Element {
  return (
    <td>
      <Show when={props.line.task_id} fallback={<span class="muted">—</span>}>
        {(taskId) => (
          <span class="or-sku">
            <a class="tk-mono" href={hrefFor(`/tasks/${encodeURIComponent(taskId())}`)} data-testid="order-task-link">
              {taskId()}
            </a>
            <Show when={props.line.task_status}>{(s) => <StatusBadge status={s()} />}</Show>
          </span>
        )}
      </Show>
      {/* the draft's collected price rose above its cap since it was made (and below 最低毛利率) */}
      <Show when={props.line.task_price_flag}>
        {(f) => (
          <span class="or-problem" data-testid="order-price-flag" data-code={f().code} title={f().message}>
            {f().code === 'MARGIN_TOO_LOW' ? '涨价：毛利不足' : '涨价：超过最高总价'}
          </span>
        )}
      </Show>
    </td>
  );
}
