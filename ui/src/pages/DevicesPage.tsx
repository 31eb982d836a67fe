import { createSignal, Show, type JSX } from 'solid-js';
import type { DeviceView } from '../../../domain/devices';
import { listDevices } from '../api/endpoints';
import DeviceTable from '../components/devices/DeviceTable';
import '../components/tasks/tasks.css';
import { errorText } from '../errors';
import { createPoll } from '../lib/poll';
import { formatTime } from '../lib/time';

const DEVICE_POLL_MS = 10_000;

export default function DevicesPage(): JSX.Element {
  const [devices, setDevices] = createSignal<DeviceView[] | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [loadedAt, setLoadedAt] = createSignal<string | null>(null);

  const load = async (): Promise<void> => {
    try {
      setDevices(await listDevices());
      setLoadedAt(new Date().toISOString());
      setError(null);
    } catch (err) {
      // Keep the last good table on screen: a blip should not blank what the operator reads.
      setError(errorText(err));
    }
  };
  createPoll(load, DEVICE_POLL_MS, { immediate: true });

  return (
    <section class="page" data-testid="page-devices">
      <div class="tk-head">
        <div>
          <h1 class="page-title">设备</h1>
          <p class="page-summary">执行采集和下单的安卓手机；每 10 秒自动刷新。</p>
        </div>
        <span class="muted" data-testid="devices-loaded-at">
          {loadedAt() ? `更新于 ${formatTime(loadedAt())}` : ''}
        </span>
      </div>
      <Show when={error()}>
        {(msg) => (
          <p class="form-error" role="alert" data-testid="devices-error">
            {msg()}
          </p>
        )}
      </Show>
      <Show when={devices()} fallback={<p class="muted">正在加载…</p>}>
        {(list) => <DeviceTable devices={list()} />}
      </Show>
    </section>
  );
}
