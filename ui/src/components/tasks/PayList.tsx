import { For, Show, type JSX } from 'solid-js';
import { formatYuan } from '../../lib/money';
import { hrefFor } from '../../router';
import FormDialog from '../FormDialog';
import ErrorMessage from '../ErrorMessage';
import { createPayList, PAY_LIST_LIMIT, type PayList as PayListData, type PhoneGroup } from './pay-list';
import type { TaskListItem } from './types';

const CHECK_ZH: Record<string, string> = {
  pending: '核对中：等手机空闲时只读查看待付款列表',
  confirmed: '手机核对：已不在待付款',
  mismatch: '手机核对不一致',
  unavailable: '未能核对',
};

/**
 * 采购任务 → 待付款: what a person pays, phone by phone — each order's confirmed amount (the
 * 提交订单 amount, not the cap), its PDD order number, the phone and its PDD account, a sum per
 * phone — then 标记已付款 for the ones paid, and what the look at the phone found afterwards.
 */
export default function PayList(): JSX.Element {
  const d = createPayList();
  return (
    <div class="tk-pay-list" data-testid="pay-list">
      <p class="muted">
        请在对应手机的拼多多里（用下表的拼多多账号）付款，付完后勾选并「标记已付款」。标记后，手机空闲时会只读查看它的待付款列表核对：仍在待付款的订单会标红并进入「需处理」。
      </p>
      <ErrorMessage testid="pay-load-error" message={d.loadError()} />
      <Show when={d.markPaid.notice()}>
        {(msg) => (
          <p class="tk-notice" role="status" data-testid="pay-notice">
            {msg()}
          </p>
        )}
      </Show>
      <Show when={d.refusals().length > 0}>
        <ul class="tk-refusals form-error" data-testid="pay-refusals">
          <For each={d.refusals()}>
            {(r) => (
              <li data-testid="pay-refusal" data-task-id={r.task_id} data-code={r.code}>
                {r.task_id}：{r.message || r.code}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <ErrorMessage testid="pay-error" message={d.markPaid.error() ?? d.recheck.error()} />

      <div class="tk-pay-bar">
        <span data-testid="pay-selection">
          已选 <strong data-testid="pay-selected-count">{d.picked().size}</strong> 笔，合计{' '}
          <strong data-testid="pay-selected-sum">{formatYuan(d.pickedSum())}</strong>
        </span>
        <button
          type="button"
          class="btn btn-primary"
          data-testid="pay-mark"
          disabled={d.picked().size === 0 || d.markPaid.busy()}
          onClick={() => d.setConfirming(true)}
        >
          标记已付款
        </button>
      </div>

      <Show when={d.groups().length === 0 && !d.loadError()}>
        <p class="muted" data-testid="pay-empty">
          没有等待付款的订单。
        </p>
      </Show>
      <For each={d.groups()}>{(g) => <PhoneBlock group={g} d={d} />}</For>
      <Show when={d.more()}>
        <p class="tk-warn">
          待付款订单超过 {PAY_LIST_LIMIT} 笔：这里只列出最近的 {PAY_LIST_LIMIT} 笔，每台手机的合计也只算这些。
        </p>
      </Show>

      <CheckedList d={d} />
      <Show when={d.confirming()}>
        <PayConfirm d={d} />
      </Show>
    </div>
  );
}

/** One phone: its name and PDD account, its orders, what they add up to. */
function PhoneBlock(props: { group: PhoneGroup; d: PayListData }): JSX.Element {
  const allPicked = (): boolean => props.group.tasks.every((t) => props.d.picked().has(t.task_id));
  return (
    <section class="tk-pay-group" data-testid="pay-group" data-device-id={props.group.key}>
      <header class="tk-pay-group-head">
        <label>
          <input
            type="checkbox"
            data-testid="pay-select-group"
            checked={allPicked()}
            onChange={() => props.d.toggleGroup(props.group)}
          />{' '}
          <strong data-testid="pay-group-phone">{props.group.deviceName}</strong>
        </label>
        <span data-testid="pay-group-account">
          拼多多账号：{props.group.pddAccount ?? '未填写（请在「设备」里填写）'}
        </span>
        <span>
          <span data-testid="pay-group-count">{props.group.tasks.length}</span> 笔，应付合计{' '}
          <strong data-testid="pay-group-sum">{formatYuan(props.group.sumCent)}</strong>
          <Show when={props.group.unknown > 0}>（另有 {props.group.unknown} 笔金额未知）</Show>
        </span>
      </header>
      <table class="tk-table">
        <thead>
          <tr>
            <th />
            <th>商品</th>
            <th>拼多多订单号</th>
            <th>应付金额</th>
            <th>顺运宝订单号</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.group.tasks}>
            {(t) => (
              <tr
                data-testid="pay-row"
                data-task-id={t.task_id}
                classList={{ selected: props.d.picked().has(t.task_id) }}
              >
                <td>
                  <input
                    type="checkbox"
                    data-testid="pay-select"
                    aria-label={`选择 ${t.pdd_order_no ?? t.task_id}`}
                    checked={props.d.picked().has(t.task_id)}
                    onChange={() => props.d.toggle(t)}
                  />
                </td>
                <td>
                  <a href={hrefFor(`/tasks/${t.task_id}`)}>{t.title ?? t.task_id}</a>
                </td>
                <td class="tk-mono" data-testid="pay-order-no">
                  {t.pdd_order_no ?? '—'}
                </td>
                <td data-testid="pay-amount">{formatYuan(t.confirmed_total_cent)}</td>
                <td class="tk-mono">{t.syb_order_no ?? '—'}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </section>
  );
}

/** What the look at the phone found for a task marked paid; a mismatch in red with its message. */
export function PaymentCheck(props: { task: Pick<TaskListItem, 'payment_check'> }): JSX.Element {
  return (
    <Show when={props.task.payment_check}>
      {(c) => (
        <span
          class="tk-pay-check"
          classList={{ 'tk-pay-check-bad': c().status === 'mismatch', 'tk-pay-check-ok': c().status === 'confirmed' }}
          data-testid="pay-check"
          data-status={c().status}
        >
          {CHECK_ZH[c().status] ?? c().status}
          <Show when={c().message && c().status !== 'confirmed'}>：{c().message}</Show>
        </span>
      )}
    </Show>
  );
}

/** The tasks marked paid whose look at the phone is pending or did not confirm, with 重新核对. */
function CheckedList(props: { d: PayListData }): JSX.Element {
  const d = props.d;
  return (
    <>
      <Show when={d.checks().length > 0}>
        <h2 class="tk-pay-h2">已标记付款 · 手机核对</h2>
        <table class="tk-table" data-testid="pay-checks">
          <thead>
            <tr>
              <th>任务</th>
              <th>拼多多订单号</th>
              <th>手机</th>
              <th>应付金额</th>
              <th>核对</th>
              <th />
            </tr>
          </thead>
          <tbody>
            <For each={d.checks()}>
              {(t) => (
                <tr data-testid="pay-check-row" data-task-id={t.task_id}>
                  <td>
                    <a href={hrefFor(`/tasks/${t.task_id}`)}>{t.title ?? t.task_id}</a>
                  </td>
                  <td class="tk-mono">{t.pdd_order_no ?? '—'}</td>
                  <td>{t.device_name ?? '—'}</td>
                  <td>{formatYuan(t.confirmed_total_cent)}</td>
                  <td>
                    <PaymentCheck task={t} />
                  </td>
                  <td>
                    <Show when={t.payment_check?.status !== 'pending'}>
                      <button
                        type="button"
                        class="btn"
                        data-testid="pay-recheck"
                        disabled={d.recheck.busy()}
                        onClick={() => void d.recheck.run(t.task_id)}
                      >
                        重新核对
                      </button>
                    </Show>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
    </>
  );
}

/** 确认已付款: names how many orders and what they add up to before they are marked. */
function PayConfirm(props: { d: PayListData }): JSX.Element {
  const d = props.d;
  return (
    <FormDialog
      title="确认已付款"
      testid="pay-dialog"
      onClose={() => d.setConfirming(false)}
      submitLabel="确认标记已付款"
      busyLabel="正在标记…"
      submitTestid="pay-confirm"
      backTestid="pay-cancel"
      busy={d.markPaid.busy()}
      onSubmit={() => void d.markPaid.run()}
    >
      <p data-testid="pay-dialog-summary">
        将把 <strong>{d.picked().size}</strong> 笔订单标记为已付款，合计 <strong>{formatYuan(d.pickedSum())}</strong>。
      </p>
      <p class="muted">请确认这些订单已在拼多多手机应用里付款。标记后手机空闲时会只读核对待付款列表。</p>
    </FormDialog>
  );
}
