import {
  SETTING_KEYS,
  SETTINGS,
  settingSchema,
  type SettingKey,
  type SettingsUpdate,
  type SettingsValues,
  type SettingsView,
} from '../../domain/settings';
import { nowUtc } from '../../domain/time';
import type { AuditHook } from '../catalog/common';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict } from '../../domain/api-error';

/**
 * The one reader and writer of the operator settings in `app_settings` (domain/settings.ts names
 * them). Every read goes to the database, so a change on 设置 applies to the next purchase, draft
 * or phone registration without a restart.
 */

type Stored = { ok: true; value: number } | { ok: false; raw: string };

function parseStored(key: SettingKey, raw: string): Stored {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, raw };
  }
  const checked = settingSchema(key).safeParse(value);
  return checked.success ? { ok: true, value: checked.data } : { ok: false, raw };
}

async function storedRows(db: AdminDb, keys: readonly SettingKey[]): Promise<Map<SettingKey, Stored>> {
  const rows = await db
    .selectFrom('app_settings')
    .select(['setting_key', 'value_json'])
    .where('setting_key', 'in', keys)
    .execute();
  return new Map(
    rows.map((r) => [r.setting_key as SettingKey, parseStored(r.setting_key as SettingKey, r.value_json)]),
  );
}

/**
 * A setting's value for the code that acts on it. A stored value outside its range was written
 * by hand, past the validation of 设置; acting on it could lift a safety limit, so it refuses
 * the action (409 SETTING_INVALID) until the setting is saved again.
 */
export async function readSetting(db: AdminDb, key: SettingKey): Promise<number> {
  const stored = (await storedRows(db, [key])).get(key);
  if (!stored) return SETTINGS[key].default;
  if (!stored.ok) {
    throw conflict(
      'SETTING_INVALID',
      `setting ${key} is ${stored.raw}, outside ${SETTINGS[key].min}..${SETTINGS[key].max}; save it again on 设置`,
      { key },
    );
  }
  return stored.value;
}

/** What 设置 shows: every value, and which stored ones are unusable (shown with the default). */
export async function settingsView(db: AdminDb): Promise<SettingsView> {
  const stored = await storedRows(db, SETTING_KEYS);
  const values = {} as SettingsValues;
  const invalid: SettingKey[] = [];
  for (const key of SETTING_KEYS) {
    const s = stored.get(key);
    if (s && !s.ok) invalid.push(key);
    values[key] = s?.ok ? s.value : SETTINGS[key].default;
  }
  return { values, invalid };
}

/**
 * Writes the given settings in one transaction with one audit row naming each change as
 * old → new. Keys given with the value they already have change nothing and are not audited;
 * when nothing changes, nothing is written.
 */
export async function settingsUpdate(db: AdminDb, update: SettingsUpdate, audit: AuditHook): Promise<SettingsView> {
  await writeTransaction(db, async (trx) => {
    const stored = await storedRows(trx, SETTING_KEYS);
    const now = nowUtc();
    // `old` is what was in effect: the default when unset, the raw text of a hand-edited row.
    const changes: Record<string, { old: number | string; new: number }> = {};
    for (const key of SETTING_KEYS) {
      const value = update[key];
      const before = stored.get(key);
      const old = before === undefined ? SETTINGS[key].default : before.ok ? before.value : before.raw;
      if (value === undefined || value === old) continue;
      changes[key] = { old, new: value };
      const valueJson = JSON.stringify(value);
      await trx
        .insertInto('app_settings')
        .values({ setting_key: key, value_json: valueJson, updated_at: now })
        .onConflict((oc) => oc.column('setting_key').doUpdateSet({ value_json: valueJson, updated_at: now }))
        .execute();
    }
    if (Object.keys(changes).length > 0) await audit(trx, { action: 'settings.set', details: { changes } });
  });
  return settingsView(db);
}
