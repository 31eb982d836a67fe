import { createSignal } from 'solid-js';
import type { DeviceView } from '../../../../domain/devices';
import { listDevices } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createPoll } from '../../lib/poll';
import { forgetDeviceNames } from './DeviceName';

const DEVICE_POLL_MS = 10_000;

/** 设备's data: the phones polled every 10 s and when they were read (the row actions: DeviceActionDialog). */
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

  /** A phone was issued, renamed, revoked, approved, paused…: its name may have changed everywhere. */
  const changed = (): void => {
    forgetDeviceNames();
    void load();
  };

  return { devices, error, loadedAt, now, changed };
}
