import type { AuditTables } from './tables/audit';
import type { AuthTables } from './tables/auth';
import type { CatalogTables } from './tables/catalog';
import type { DeviceTables } from './tables/devices';
import type { EvidenceTables } from './tables/evidence';
import type { HostTables } from './tables/hosts';
import type { PurchaseTables } from './tables/purchase';
import type { SettingsTables } from './tables/settings';
import type { SybTables } from './tables/syb';

/**
 * Row types of the admin database, kept in step with `migrations/`: one file per area under
 * `tables/`, joined here. When a migration creates a table, add it to REQUIRED_TABLES too, so
 * the startup self-check refuses a database the code does not match (docs/architecture.md §5.1).
 */
export type AdminDatabase = SettingsTables &
  AuthTables &
  DeviceTables &
  EvidenceTables &
  AuditTables &
  CatalogTables &
  PurchaseTables &
  SybTables &
  HostTables;

export const REQUIRED_TABLES: ReadonlyArray<keyof AdminDatabase> = [
  'app_settings',
  'users',
  'sessions',
  'device_credentials',
  'devices',
  'device_holds',
  'taught_overlays',
  'evidence_assets',
  'audit_log',
  'shopee_products',
  'shopee_skus',
  'pdd_products',
  'sku_mappings',
  'tasks',
  'task_claims',
  'order_authorizations',
  'purchase_attempts',
  'order_submissions',
  'task_counts',
  'task_list_version',
  'syb_orders',
  'syb_session',
  'syb_account_secret',
  'syb_sync_state',
  'device_attention',
  'app_versions',
  'phone_hosts',
  'host_phones',
  'device_health',
];
