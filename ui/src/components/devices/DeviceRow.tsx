import { Show, type JSX } from 'solid-js';
import { attentionReasonZh, type DeviceView } from '../../../../domain/devices';
import { agentReasonDetail, agentStateZh } from '../../../../domain/phone-agent';
import { formatTime } from '../../lib/time';
import RawDetail from '../tasks/RawDetail';
import { hrefFor } from '../../router';
import { pathOf, ROUTES } from '../../route-table';
import { ageZh } from './age';
import type { DeviceAction } from './DeviceActionDialog';
import { hostZh, PhoneHostStatus } from './HostPhone';
import OnlineChip from './OnlineChip';

export default function DeviceRow(props: {
  device: DeviceView;
  now: number;
  onRename: () => void;
  onRevoke: () => void;
  onAction: (action: DeviceAction) => void;
}): JSX.Element {
  const d = (): DeviceView => props.device;
  return (
    <tr
      data-testid="device-row"
      data-device-id={d().device_id}
      data-online={d().online ? 'true' : 'false'}
      data-attention={d().attention?.reason_code ?? ''}
      data-state={d().state ?? 'active'}
    >
      <td>
        <div data-testid="device-display-name">{d().display_name}</div>
        <Show when={d().pdd_account}>
          {(a) => (
            <div class="muted" data-testid="device-pdd-account">
              拼多多账号：{a()}
            </div>
          )}
        </Show>
        <Show when={d().host_id}>
          <div class="muted" data-testid="device-host">
            {hostZh(d())}
          </div>
        </Show>
        {/* the id is for engineers (logs, the data dir): folded, as everywhere on operator pages */}
        <details class="tk-raw-detail">
          <summary class="muted">技术详情</summary>
          <code class="tk-mono">{d().device_id}</code>
        </details>
      </td>
      <DeviceStatusCell device={d()} />
      <td>{d().app_version ?? '—'}</td>
      <td>{[d().model, d().serial].filter((s) => s).join(' · ') || '—'}</td>
      <td>
        <Show when={d().current_task_id} fallback="空闲">
          {(id) => (
            <>
              <a href={hrefFor(`/tasks/${encodeURIComponent(id())}`)} data-testid="device-task-link">
                {id()}
              </a>
              <div class="tk-reason" data-testid="device-claim-age">
                已领取 {ageZh(d().claimed_at, props.now)}
              </div>
            </>
          )}
        </Show>
      </td>
      <td class="dv-error">
        <Show when={d().last_error} fallback="—">
          {(e) => (
            <div data-testid="device-last-error">
              <div>{e().reason_zh}</div>
              <div class="tk-reason">
                {formatTime(e().at)} · <a href={hrefFor(`/tasks/${encodeURIComponent(e().task_id)}`)}>查看任务</a>
              </div>
            </div>
          )}
        </Show>
      </td>
      <td class="tk-time">{formatTime(d().last_seen_at)}</td>
      <DeviceActions device={d()} onRename={props.onRename} onRevoke={props.onRevoke} onAction={props.onAction} />
    </tr>
  );
}

/** 在线 / 离线, 需处理 with its reason, the phone host's state, the read-screen agent, and how online was judged. */
function DeviceStatusCell(props: { device: DeviceView }): JSX.Element {
  const d = (): DeviceView => props.device;
  return (
    <td>
      <OnlineChip device={d()} />
      <Show when={d().attention}>
        {(a) => (
          <div data-testid="device-attention">
            <span class="tk-badge tk-tone-attention" data-testid="device-attention-badge">
              需处理
            </span>
            <div class="tk-reason" data-testid="device-attention-reason">
              {attentionReasonZh(a().reason_code)} · 自 {formatTime(a().since)}；处理后点「恢复」
            </div>
          </div>
        )}
      </Show>
      <Show when={d().held_by}>
        {(who) => (
          <div data-testid="device-held">
            <span class="tk-badge tk-tone-attention">人工操作中（{who()}）</span>
          </div>
        )}
      </Show>
      <PhoneHostStatus device={d()} />
      <div class="tk-reason" data-testid="device-agent" data-agent-state={d().agent.state}>
        读屏代理：{agentStateZh(d().agent)}
      </div>
      <RawDetail detail={agentReasonDetail(d().agent)} testId="device-agent-reason" />
      <Show when={d().online_source === 'last_seen'}>
        <div class="tk-reason" data-testid="device-online-fallback">
          Temporal 未连接，按最近联系时间判断
        </div>
      </Show>
    </td>
  );
}

/**
 * 批准 (a pending phone), 屏幕, 暂停 or 恢复, 改名; then, set apart at the row's end, the one
 * action that cannot be undone: 拒绝 for a pending phone (it revokes the same credential), else 吊销.
 * Every action that changes what the phone does is confirmed first (DevicesPage).
 */
function DeviceActions(props: {
  device: DeviceView;
  onRename: () => void;
  onRevoke: () => void;
  onAction: (action: DeviceAction) => void;
}): JSX.Element {
  const d = (): DeviceView => props.device;
  const pending = (): boolean => d().state === 'pending';
  return (
    <td>
      <div class="dv-actions">
        <Show when={pending()}>
          <button
            type="button"
            class="btn btn-primary"
            data-testid="device-approve"
            onClick={() => props.onAction('approve')}
          >
            批准
          </button>
        </Show>
        {/* only a phone host's approved phone has a screen the admin can show */}
        <Show when={d().host_id && d().state === 'active'}>
          <a
            class="btn"
            href={hrefFor(pathOf(ROUTES.deviceScreen, { deviceId: d().device_id }))}
            data-testid="device-screen-link"
          >
            屏幕
          </a>
        </Show>
        <Show
          when={d().attention}
          fallback={
            <button type="button" class="btn" data-testid="device-pause" onClick={() => props.onAction('pause')}>
              暂停
            </button>
          }
        >
          <button
            type="button"
            class="btn btn-primary"
            data-testid="device-resume"
            onClick={() => props.onAction('resume')}
          >
            恢复
          </button>
        </Show>
        <button type="button" class="btn" data-testid="device-rename" onClick={() => props.onRename()}>
          改名
        </button>
        <span class="dv-danger">
          <Show
            when={pending()}
            fallback={
              <button
                type="button"
                class="btn tk-btn-danger"
                data-testid="device-revoke"
                onClick={() => props.onRevoke()}
              >
                吊销
              </button>
            }
          >
            <button
              type="button"
              class="btn tk-btn-danger"
              data-testid="device-reject"
              onClick={() => props.onAction('reject')}
            >
              拒绝
            </button>
          </Show>
        </span>
      </div>
    </td>
  );
}
