/** `GET /api/devices` (admin/auth/device-registry.ts DeviceView). */
export interface DeviceView {
  device_id: string;
  display_name?: string | null;
  online: boolean;
  app_version: string | null;
  current_task_id: string | null;
  serial?: string | null;
  model?: string | null;
  last_seen_at?: string | null;
}
