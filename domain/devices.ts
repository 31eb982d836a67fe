/**
 * A phone as operators see it (`GET /api/devices`). Online is worked out when read (seen
 * within the last few minutes), never stored.
 */
export interface DeviceView {
  device_id: string;
  display_name: string;
  online: boolean;
  app_version: string | null;
  current_task_id: string | null;
  serial: string | null;
  model: string | null;
  last_seen_at: string | null;
}
