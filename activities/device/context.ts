import type { AdbDevice } from '../../device-worker/adb/adb-device';
import type { ArtifactStore } from '../../device-worker/artifacts';
import type { DeviceLedger } from '../../device-worker/ledger/ledger';
import type { SessionTiming } from '../../device-worker/pdd/session';
import type { Logger } from 'pino';

/** Everything the device activities of one phone need; built once by the device worker. */
export interface DeviceContext {
  deviceId: string;
  taskQueue: string;
  adb: AdbDevice;
  ledger: DeviceLedger;
  artifacts: ArtifactStore;
  timing: SessionTiming;
  log: Logger;
  /** called after a claim is recorded: stop polling `devices`, report to the admin */
  onClaimed(): void;
  /** called after the open claim is released: poll `devices` again */
  onReleased(): void;
  /**
   * Asked before a claim is recorded: null, or why this phone may take no claim now (paused,
   * 需处理, off ADB, token revoked — device-worker/runtime/device-status.ts). Absent: always yes.
   */
  claimRefusal?(): Promise<string | null>;
  /** the reviewed popups taught for this PDD version (admin/devices/taught-overlays.ts); absent: none */
  taughtOverlays?(appVersion: string): Promise<unknown[]>;
}
