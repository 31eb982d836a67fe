import { createSignal, Show, type JSX } from 'solid-js';
import type { DeviceView } from '../../../domain/devices';
import ErrorMessage from '../components/ErrorMessage';
import AppVersions from '../components/devices/AppVersions';
import { createDeviceList } from '../components/devices/device-list';
import DeviceActionDialog, { type DeviceAction } from '../components/devices/DeviceActionDialog';
import DeviceTable from '../components/devices/DeviceTable';
import IssueDialog from '../components/devices/IssueDialog';
import RenameDialog from '../components/devices/RenameDialog';
import RevokeDialog from '../components/devices/RevokeDialog';
import { HostIssueDialog } from '../components/devices/HostPhone';
import '../components/tasks/tasks.css';
import { formatTime } from '../lib/time';

export default function DevicesPage(): JSX.Element {
  const { devices, error, loadedAt, now, changed } = createDeviceList();
  const [issuing, setIssuing] = createSignal(false);
  const [issuingHost, setIssuingHost] = createSignal(false);
  const [renaming, setRenaming] = createSignal<DeviceView | null>(null);
  const [revoking, setRevoking] = createSignal<DeviceView | null>(null);
  const [asking, setAsking] = createSignal<{ device: DeviceView; action: DeviceAction } | null>(null);

  return (
    <section class="page" data-testid="page-devices">
      <DevicesHead loadedAt={loadedAt()} onIssue={() => setIssuing(true)} onIssueHost={() => setIssuingHost(true)} />
      <ErrorMessage testid="devices-error" message={error()} />
      <Show when={devices()} fallback={<p class="muted">正在加载…</p>}>
        {(list) => (
          <DeviceTable
            devices={list()}
            now={now()}
            onRename={(d) => setRenaming(d)}
            onRevoke={(d) => setRevoking(d)}
            onAction={(device, action) => setAsking({ device, action })}
          />
        )}
      </Show>

      <AppVersions />

      <Show when={issuingHost()}>
        <HostIssueDialog onClose={() => setIssuingHost(false)} />
      </Show>
      <Show when={issuing()}>
        <IssueDialog onIssued={changed} onClose={() => setIssuing(false)} />
      </Show>
      <Show when={renaming()}>
        {(d) => (
          <RenameDialog
            deviceId={d().device_id}
            current={d().display_name}
            currentAccount={d().pdd_account ?? ''}
            onDone={() => {
              setRenaming(null);
              changed();
            }}
            onClose={() => setRenaming(null)}
          />
        )}
      </Show>
      <Show when={asking()} keyed>
        {(a) => (
          <DeviceActionDialog
            device={a.device}
            action={a.action}
            onDone={() => {
              setAsking(null);
              changed();
            }}
            onClose={() => setAsking(null)}
          />
        )}
      </Show>
      <Show when={revoking()}>
        {(d) => (
          <RevokeDialog
            device={d()}
            onRevoked={() => {
              setRevoking(null);
              changed();
            }}
            onClose={() => setRevoking(null)}
          />
        )}
      </Show>
    </section>
  );
}

/** 设备, when the table was read, and the two ways to add phones: a phone host first, one phone by hand second. */
function DevicesHead(props: { loadedAt: string | null; onIssue: () => void; onIssueHost: () => void }): JSX.Element {
  return (
    <div class="tk-head">
      <div>
        <h1 class="page-title">设备</h1>
        <p class="page-summary">
          执行采集和下单的安卓手机；每 10 秒自动刷新。「需处理」或已暂停的手机不领取新任务，处理后点「恢复」。
        </p>
      </div>
      <div class="tk-actions">
        <span class="muted" data-testid="devices-loaded-at">
          {props.loadedAt ? `更新于 ${formatTime(props.loadedAt)}` : ''}
        </span>
        <button type="button" class="btn btn-primary" data-testid="host-issue" onClick={() => props.onIssueHost()}>
          添加手机主机
        </button>
        <button type="button" class="btn" data-testid="device-issue" onClick={() => props.onIssue()}>
          发放单台设备凭据
        </button>
      </div>
    </div>
  );
}
