/** Device credentials (docs/security.md "Devices") and what a device reports about itself (docs/architecture.md §5.1). */
interface DeviceCredentialsTable {
  /** canonical lowercase UUIDv4 */
  device_id: string;
  display_name: string;
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
}

export interface DeviceTables {
  device_credentials: DeviceCredentialsTable;
  devices: DevicesTable;
}
