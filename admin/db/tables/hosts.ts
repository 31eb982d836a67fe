/** Phone hosts, the phones they report and the phones' health (migrations/0065_phone_hosts.ts). */
interface PhoneHostsTable {
  /** canonical lowercase UUIDv4 */
  host_id: string;
  display_name: string;
  /** SHA-256 of the raw 32 token bytes */
  token_sha256: Buffer;
  status: 'ACTIVE' | 'REVOKED';
  created_at: string;
  revoked_at: string | null;
  last_seen_at: string | null;
  /** `host:port` of the host's metrics endpoint, as the host reported it */
  metrics_target: string | null;
}

interface HostPhonesTable {
  device_id: string;
  host_id: string;
  serial: string;
  model: string;
  android_version: string;
  app_version: string;
  /** `ro.serialno`: one handset, one device, whatever ADB serial it is seen under; null from hosts before */
  hardware_serial: string | null;
  /** null: 待批准 */
  approved_at: string | null;
  created_at: string;
}

interface DeviceHealthTable {
  device_id: string;
  battery_level: number;
  charging: number;
  screen: 'on' | 'off' | 'locked';
  free_storage_mb: number;
  checked_at: string;
  /** the PDD version read with it; null when unknown */
  app_version: string | null;
}

export interface HostTables {
  phone_hosts: PhoneHostsTable;
  host_phones: HostPhonesTable;
  device_health: DeviceHealthTable;
}
