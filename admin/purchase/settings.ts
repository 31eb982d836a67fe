import type { AdminDb } from '../db/database';

/** Purchase settings (app_settings); defaults apply until an operator sets them. */
const PURCHASE_SETTING_DEFAULTS = {
  'safety.max_quantity': 10,
  /** added to collected price × quantity for the cap of a draft made from an order line (cents) */
  'safety.price_tolerance_cent': 500,
  'purchase.authorization_ttl_minutes': 60,
} as const;

export type PurchaseSettingKey = keyof typeof PURCHASE_SETTING_DEFAULTS;

export async function readIntSetting(db: AdminDb, key: PurchaseSettingKey): Promise<number> {
  const row = await db.selectFrom('app_settings').select('value_json').where('setting_key', '=', key).executeTakeFirst();
  if (!row) return PURCHASE_SETTING_DEFAULTS[key];
  const value: unknown = JSON.parse(row.value_json);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`setting ${key} must be a positive integer, found ${row.value_json}; fix it on 设置`);
  }
  return value;
}
