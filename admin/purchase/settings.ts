import type { AdminDb } from '../db/database';
import { readSetting } from '../settings/settings';

/** The settings the purchase code reads; their defaults and ranges are in domain/settings.ts. */
export type PurchaseSettingKey =
  'safety.max_quantity' | 'safety.price_tolerance_cent' | 'purchase.authorization_ttl_minutes';

export function readIntSetting(db: AdminDb, key: PurchaseSettingKey): Promise<number> {
  return readSetting(db, key);
}
