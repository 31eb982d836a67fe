import { createSignal } from 'solid-js';
import type { DeviceView } from '../../../../domain/devices';
import { listDevices, pauseDevice, resumeDevice } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction, toLoadError } from '../../lib/action';
import { createPoll } from '../../lib/poll';
import { forgetDeviceNames } from './DeviceName';

const DEVICE_POLL_MS = 10_000;

/** 设备's data: the phones polled every 10 s, when they were read, and 暂停 / 恢复. */
export function createDeviceList() {
  const [devices, setDevices] = createSignal<DeviceView[] | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [loadedAt, setLoadedAt] = createSignal<string | null>(null);
  const [now, setNow] = createSignal(Date.now());

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

  /** A phone was issued, renamed or revoked: its name may have changed everywhere. */
  const changed = (): void => {
    forgetDeviceNames();
    void load();
  };

  // 暂停 / 恢复 answer at once
  const toggle = createAction(
    async (device: DeviceView, action: 'pause' | 'resume') => {
      await (action === 'pause' ? pauseDevice : resumeDevice)(device.device_id);
      await load();
    },
    { failure: toLoadError(setError) },
  );

  return { devices, error, loadedAt, now, changed, toggle: toggle.run };
}
