import { z } from 'zod';
import { hasUnsafeNameChars, UNSAFE_NAME_MESSAGE } from './text';

/** The longest display name a device may have; the issue form and the rename field use it too. */
export const DEVICE_NAME_MAX_LENGTH = 100;

/**
 * What operators call a phone (e.g. 深圳-01). Trimmed; no control characters, so a name cannot
 * break a table row or a log line.
 */
export const deviceDisplayNameSchema = z
  .string()
  .trim()
  .min(1, 'display_name must not be empty')
  .max(DEVICE_NAME_MAX_LENGTH, `display_name must be at most ${DEVICE_NAME_MAX_LENGTH} characters`)
  .refine((s) => !hasUnsafeNameChars(s), `display_name ${UNSAFE_NAME_MESSAGE}`);

/**
 * Where `online` came from: the phone's own queue pollers as Temporal reports them, or — when
 * Temporal does not answer — the last registration or claim the admin saw.
 */
type OnlineSource = 'temporal' | 'last_seen';

/** The newest stop of one of the device's purchase attempts. */
export interface DeviceLastError {
  code: string;
  reason_zh: string;
  detail: string | null;
  task_id: string;
  at: string;
}

/**
 * A phone as operators see it (`GET /api/devices`). Online is worked out when read, never
 * stored.
 */
export interface DeviceView {
  device_id: string;
  display_name: string;
  online: boolean;
  online_source: OnlineSource;
  app_version: string | null;
  /** the purchase task the phone has claimed and is ordering (CLAIMED or ORDERING) */
  current_task_id: string | null;
  /** since when it holds `current_task_id` */
  claimed_at: string | null;
  last_error: DeviceLastError | null;
  serial: string | null;
  model: string | null;
  last_seen_at: string | null;
  created_at: string;
}

/** `POST /api/devices`: the token exists only in this answer. */
export interface IssuedDeviceView {
  device_id: string;
  display_name: string;
  token: string;
}
