/** Task queues of docs/architecture.md §3.1. */
export const ADMIN_TASK_QUEUE = 'admin';
/** Only `claimDevice` runs here; every idle device worker polls it. */
export const DEVICES_TASK_QUEUE = 'devices';

export function deviceTaskQueue(deviceId: string): string {
  return `device/${deviceId}`;
}
