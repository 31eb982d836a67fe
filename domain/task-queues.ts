/** Task queues of docs/architecture.md §3.1. */
export const ADMIN_TASK_QUEUE = 'admin';
/** Only `claimDevice` runs here; every idle device worker polls it. */
export const DEVICES_TASK_QUEUE = 'devices';

export function deviceTaskQueue(deviceId: string): string {
  return `device/${deviceId}`;
}

/**
 * Only `claimDevice` runs here, polled by that one phone while it is idle: a workflow that needs
 * that phone and no other (the payment check after 标记已付款) claims it here.
 */
export function deviceClaimTaskQueue(deviceId: string): string {
  return `claim/${deviceId}`;
}
