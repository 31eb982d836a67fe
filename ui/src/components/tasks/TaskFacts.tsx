import { Show, type JSX } from 'solid-js';
import { authorizationStatusZh } from '../../../../domain/purchase-labels';
import type { TaskView } from '../../../../domain/purchase/views';
import { formatYuan } from '../../lib/money';
import { durationText, formatTime } from '../../lib/time';
import { hrefFor } from '../../router';
import DeviceName from '../devices/DeviceName';
import { PaymentCheck } from './PayList';
import { priorityZh } from './priority';
import { temporalWorkflowUrl } from './temporal';
import { modeZh, optionsText } from './types';

/** The task's facts: what it buys, how, where it ran and when. */
export default function TaskFacts(props: { task: TaskView }): JSX.Element {
  const t = (): TaskView => props.task;
  return (
    <div class="card tk-section">
      <dl class="tk-facts" data-testid="task-facts">
        <dt>商品链接</dt>
        <dd>
          <a href={t().pdd_goods_url} target="_blank" rel="noopener noreferrer">
            {t().pdd_goods_url}
          </a>
        </dd>
        <dt>规格</dt>
        <dd data-testid="task-options">{optionsText(t().pdd_options)}</dd>
        <Show when={t().order_line_spec}>
          {(spec) => (
            <>
              <dt>订单规格</dt>
              <dd data-testid="task-order-line-spec" title="顺运宝订单明细里顾客买的规格">
                {spec()}
              </dd>
            </>
          )}
        </Show>
        <dt>数量</dt>
        <dd>{t().quantity}</dd>
        <dt>最高总价</dt>
        <dd data-testid="task-cap">{formatYuan(t().max_total_price_cent)}</dd>
        <dt>执行模式</dt>
        <dd data-testid="task-mode" classList={{ 'tk-live': t().execution_mode === 'live' }}>
          {modeZh(t().execution_mode)}
        </dd>
        <dt>优先级</dt>
        <dd data-testid="task-priority" data-priority={t().priority}>
          {priorityZh(t().priority)}
        </dd>
        <dt>拼多多订单号</dt>
        <dd data-testid="task-pdd-order-no">{t().pdd_order_no ?? t().submission?.pdd_order_no ?? '—'}</dd>
        <Show when={t().confirmed_total_cent !== null}>
          <dt>应付金额</dt>
          <dd data-testid="task-confirmed-total">{formatYuan(t().confirmed_total_cent)}</dd>
        </Show>
        <Show when={t().payment_check}>
          <dt>付款核对</dt>
          <dd data-testid="task-payment-check">
            <PaymentCheck task={t()} />
          </dd>
        </Show>
        <Show when={t().syb_order_no}>
          {(no) => (
            <>
              <dt>顺运宝订单号</dt>
              <dd data-testid="task-syb-order-no">{no()}</dd>
            </>
          )}
        </Show>
        <RunFacts task={t()} />
        <dt>创建 / 更新</dt>
        <dd>
          {formatTime(t().created_at)} / {formatTime(t().updated_at)}
        </dd>
      </dl>
    </div>
  );
}

/** Where and under what it ran: 设备, 授权, 用时, 工作流. */
function RunFacts(props: { task: TaskView }): JSX.Element {
  const t = (): TaskView => props.task;
  return (
    <>
      <dt>设备</dt>
      <dd data-testid="task-device">
        <Show when={t().device_id} fallback={t().status === 'PENDING' ? '等待手机领取' : '—'}>
          {(d) => (
            <a href={hrefFor('/devices')}>
              <DeviceName deviceId={d()} name={t().device_name} />
            </a>
          )}
        </Show>
        <Show when={t().pdd_account}>{(a) => <span data-testid="task-pdd-account"> · 拼多多账号 {a()}</span>}</Show>
      </dd>
      <dt>授权</dt>
      <dd>
        <Show when={t().authorization} fallback="—">
          {(a) => (
            <span data-testid="task-authorization" data-status={a().status}>
              {authorizationStatusZh(a().status) ?? '未知状态'} · 到期 {formatTime(a().expires_at)}
            </span>
          )}
        </Show>
      </dd>
      <dt>用时</dt>
      <dd data-testid="task-duration" title="手机执行的时间：到达待付款为止，不含等待付款">
        {durationText(t())}
      </dd>
      <Show when={t().payment_wait_seconds}>
        {(s) => (
          <>
            <dt>等待付款</dt>
            <dd data-testid="task-payment-wait">{durationText({ status: t().status, duration_seconds: s() })}</dd>
          </>
        )}
      </Show>
      <dt>工作流</dt>
      <dd>
        <Show when={t().workflow_id} fallback="—">
          {(w) => (
            <details class="tk-raw-detail" data-testid="workflow-detail">
              <summary class="muted">技术详情</summary>
              <a
                href={temporalWorkflowUrl(w())}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="workflow-link"
                class="tk-mono"
              >
                {w()}
              </a>
            </details>
          )}
        </Show>
      </dd>
    </>
  );
}
