import type { Generated } from 'kysely';
import type { AgentState } from '../../../domain/phone-agent';

/** Device credentials (docs/security.md "Devices") and what a device reports about itself (docs/architecture.md §5.1). */
interface DeviceCredentialsTable {
  /** canonical lowercase UUIDv4 */
  device_id: string;
  display_name: string;
  /** 0161: the PDD account the phone is logged in as, set by an operator on 设备; null: not said */
  pdd_account: Generated<string | null>;
  /** SHA-256 of the raw 32 token bytes, exactly 32 bytes */
  token_sha256: Buffer;
  status: 'ACTIVE' | 'REVOKED';
  created_at: string;
  revoked_at: string | null;
}

/** No status column: online is computed from last_seen_at (docs/architecture.md §5.1). */
interface DevicesTable {
  device_id: string;
  serial: string;
  model: string;
  app_version: string;
  capabilities_json: string;
  last_seen_at: string;
  created_at: string;
  updated_at: string;
  /** 1/0 as the worker last reported its ADB connection; null before its first report */
  adb_connected: number | null;
  /** when adb_connected last changed */
  adb_checked_at: string | null;
  /** the read-screen agent as the worker last reported it (domain/phone-agent.ts); null: never reported */
  agent_state: AgentState | null;
  agent_reason: string | null;
}

/** A phone that takes no claim until an operator resumes it (migrations/0040_device_attention.ts). */
interface DeviceAttentionTable {
  device_id: string;
  reason_code: string;
  since: string;
  detail: string | null;
  task_id: string | null;
  /** 处理完毕，继续 was pressed: the phone's worker reads the screen before the stop clears; null otherwise */
  check_requested_at: string | null;
}

/** A phone a person holds from the admin (migrations/0152_device_holds.ts). */
interface DeviceHoldsTable {
  device_id: string;
  held_by: string;
  /** the holder's session (sessions.id_sha256): its end ends the hold */
  session_sha256: Buffer;
  since: string;
  /** the idle limit counts from here */
  last_input_at: string;
}

/** The release gate per PDD app version (migrations/0041_app_versions.ts). */
interface AppVersionsTable {
  app_version: string;
  first_seen_at: string;
  last_dry_run_passed_at: string | null;
  last_dry_run_task_id: string | null;
  released_at: string | null;
  released_by: string | null;
}

/** A popup a person taught for one PDD app version (migrations/0154_taught_overlays.ts). */
interface TaughtOverlaysTable {
  id: Generated<number>;
  app_version: string;
  name: string;
  /** an interstitial entry as domain/pdd-overlay.ts checks it */
  entry_json: string;
  taught_by: string;
  taught_at: string;
  /** null: waits for review and reaches no phone */
  reviewed_by: string | null;
  reviewed_at: string | null;
  retired_at: string | null;
}

export interface DeviceTables {
  device_credentials: DeviceCredentialsTable;
  devices: DevicesTable;
  device_attention: DeviceAttentionTable;
  device_holds: DeviceHoldsTable;
  taught_overlays: TaughtOverlaysTable;
  app_versions: AppVersionsTable;
}
