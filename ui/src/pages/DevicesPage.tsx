import { createSignal, Show, type JSX } from 'solid-js';
import type { DeviceView } from '../../../domain/devices';
import { listDevices, pauseDevice, resumeDevice, revokeDevice } from '../api/endpoints';
import ConfirmDialog from '../components/ConfirmDialog';
import AppVersions from '../components/devices/AppVersions';
import { forgetDeviceNames } from '../components/devices/DeviceName';
import DeviceTable from '../components/devices/DeviceTable';
import IssueDialog from '../components/devices/IssueDialog';
import RenameDialog from '../components/devices/RenameDialog';
import { HostIssueDialog } from '../components/devices/HostPhone';
import '../components/tasks/tasks.css';
import { errorText } from '../errors';
import { createPoll } from '../lib/poll';
import { formatTime } from '../lib/time';

const DEVICE_POLL_MS = 10_000;

export default function DevicesPage(): JSX.Element {
  const [devices, setDevices] = createSignal<DeviceView[] | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [loadedAt, setLoadedAt] = createSignal<string | null>(null);
  const [now, setNow] = createSignal(Date.now());
  const [issuing, setIssuing] = createSignal(false);
  const [issuingHost, setIssuingHost] = createSignal(false);
  const [renaming, setRenaming] = createSignal<DeviceView | null>(null);
  const [revoking, setRevoking] = createSignal<DeviceView | null>(null);
  const [revokeBusy, setRevokeBusy] = createSignal(false);
  const [revokeError, setRevokeError] = createSignal<string | null>(null);

  const load = async (): Promise<void> => {
    try {
      setDevices(await listDevices());
      setNow(Date.now());
      setLoadedAt(new Date().toISOString());
      setError(null);
    } catch (err) {
      // Keep the last good table on screen: a blip should not blank what the operator reads.
      setError(errorText(err));
    }
  };
  createPoll(load, DEVICE_POLL_MS, { immediate: true });

  const changed = (): void => {
    forgetDeviceNames();
    void load();
  };

  const revoke = async (device: DeviceView): Promise<void> => {
    setRevokeBusy(true);
    try {
      await revokeDevice(device.device_id);
      setRevoking(null);
      setRevokeError(null);
      changed();
    } catch (err) {
      setRevokeError(errorText(err));
    } finally {
      setRevokeBusy(false);
    }
  };

  // 暂停 / 恢复 answer at once; a failure shows where the list's errors show
  const toggle = async (device: DeviceView, action: 'pause' | 'resume'): Promise<void> => {
    try {
      await (action === 'pause' ? pauseDevice : resumeDevice)(device.device_id);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section class="page" data-testid="page-devices">
      <div class="tk-head">
        <div>
          <h1 class="page-title">设备</h1>
          <p class="page-summary">
            执行采集和下单的安卓手机；每 10 秒自动刷新。「需处理」或已暂停的手机不领取新任务，处理后点「恢复」。
          </p>
        </div>
        <div class="tk-actions">
          <span class="muted" data-testid="devices-loaded-at">
            {loadedAt() ? `更新于 ${formatTime(loadedAt())}` : ''}
          </span>
          <button type="button" class="btn btn-primary" data-testid="device-issue" onClick={() => setIssuing(true)}>
            发放设备凭据
          </button>
          <button type="button" class="btn" data-testid="host-issue" onClick={() => setIssuingHost(true)}>
            发放主机凭据
          </button>
        </div>
      </div>
      <Show when={error()}>
        {(msg) => (
          <p class="form-error" role="alert" data-testid="devices-error">
            {msg()}
          </p>
        )}
      </Show>
      <Show when={devices()} fallback={<p class="muted">正在加载…</p>}>
        {(list) => (
          <DeviceTable
            devices={list()}
            now={now()}
            onRename={(d) => setRenaming(d)}
            onRevoke={(d) => setRevoking(d)}
            onPause={(d) => void toggle(d, 'pause')}
            onResume={(d) => void toggle(d, 'resume')}
            onChanged={changed}
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
            onDone={() => {
              setRenaming(null);
              changed();
            }}
            onClose={() => setRenaming(null)}
          />
        )}
      </Show>
      <Show when={revoking()}>
        {(d) => (
          <ConfirmDialog
            title="吊销设备凭据"
            message={`吊销「${d().display_name}」后，这台手机的设备进程将无法再领取任务或上传截图${d().current_task_id ? '（它正在执行一个采购任务）' : ''}。此操作不能撤销，如需继续使用请重新发放。${revokeError() ?? ''}`}
            confirmLabel="吊销"
            testid="device-revoke-dialog"
            busy={revokeBusy()}
            danger
            onConfirm={() => void revoke(d())}
            onClose={() => {
              setRevoking(null);
              setRevokeError(null);
            }}
          />
        )}
      </Show>
    </section>
  );
}
