import {
  OPTIONAL_SETTING_KEYS,
  publicUrlSchema,
  SETTING_KEYS,
  SETTINGS,
  settingSchema,
  TEXT_SETTING_KEYS,
  type OptionalSettingKey,
  type SettingKey,
  type TextSettingKey,
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

type Stored<V> = { ok: true; value: V } | { ok: false; raw: string };
type AnyKey = SettingKey | OptionalSettingKey | TextSettingKey;

const isTextKey = (key: AnyKey): key is TextSettingKey => (TEXT_SETTING_KEYS as readonly string[]).includes(key);
const isOptionalKey = (key: AnyKey): key is OptionalSettingKey =>
  (OPTIONAL_SETTING_KEYS as readonly string[]).includes(key);
/** what is in effect without a row: the default, or null for a setting that has none */
const unsetValue = (key: AnyKey): number | null =>
  isTextKey(key) || isOptionalKey(key) ? null : SETTINGS[key].default;

function parseStored(key: AnyKey, raw: string): Stored<number | string> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, raw };
  }
  // a stored address must still be one the page would accept, and already in its stored form
  const checked = isTextKey(key)
    ? publicUrlSchema.refine((v) => v === value).safeParse(value)
    : settingSchema(key).safeParse(value);
  return checked.success ? { ok: true, value: checked.data } : { ok: false, raw };
}

async function storedRows(db: AdminDb, keys: readonly AnyKey[]): Promise<Map<AnyKey, Stored<number | string>>> {
  const rows = await db
    .selectFrom('app_settings')
    .select(['setting_key', 'value_json'])
    .where('setting_key', 'in', keys)
    .execute();
  return new Map(rows.map((r) => [r.setting_key as AnyKey, parseStored(r.setting_key as AnyKey, r.value_json)]));
}

const ALL_KEYS: readonly AnyKey[] = [...SETTING_KEYS, ...OPTIONAL_SETTING_KEYS, ...TEXT_SETTING_KEYS];

/**
 * A setting's value for the code that acts on it. A stored value outside its range was written
 * by hand, past the validation of 设置; acting on it could lift a safety limit, so it refuses
 * the action (409 SETTING_INVALID) until the setting is saved again.
 */
export async function readSetting(db: AdminDb, key: SettingKey): Promise<number> {
  const stored = (await storedRows(db, [key])).get(key);
  if (!stored) return SETTINGS[key].default;
  // a number key parses to a number when ok (parseStored); the type says so here
  if (stored.ok && typeof stored.value === 'number') return stored.value;
  throw conflict(
    'SETTING_INVALID',
    `setting ${key} is ${stored.ok ? stored.value : stored.raw}, outside ${SETTINGS[key].min}..${SETTINGS[key].max}; save it again on 设置`,
    { key },
  );
}

/**
 * An address setting, or null when unset. One stored by hand that 设置 would refuse counts as
 * unset (and 设置 flags it): what reads it says "not set" rather than print a broken address.
 */
export async function readTextSetting(db: AdminDb, key: TextSettingKey): Promise<string | null> {
  const stored = (await storedRows(db, [key])).get(key);
  return stored?.ok && typeof stored.value === 'string' ? stored.value : null;
}

/**
 * A setting without a default (domain/settings.ts OPTIONAL_SETTINGS): null when unset. A stored
 * value outside its range (edited by hand) is refused like readSetting's, never taken for unset:
 * an unset minimum margin turns a guard off.
 */
export async function readOptionalSetting(db: AdminDb, key: OptionalSettingKey): Promise<number | null> {
  const stored = (await storedRows(db, [key])).get(key);
  if (!stored) return null;
  if (stored.ok && typeof stored.value === 'number') return stored.value;
  throw conflict(
    'SETTING_INVALID',
    `setting ${key} is ${stored.ok ? stored.value : stored.raw}; save it again on 设置`,
    {
      key,
    },
  );
}

/** What 设置 shows: every value, and which stored ones are unusable (shown with the default). */
export async function settingsView(db: AdminDb): Promise<SettingsView> {
  const stored = await storedRows(db, ALL_KEYS);
  const values: Record<string, number | string | null> = {};
  const invalid: AnyKey[] = [];
  for (const key of ALL_KEYS) {
    const s = stored.get(key);
    if (s && !s.ok) invalid.push(key);
    values[key] = s?.ok ? s.value : unsetValue(key);
  }
  return { values: values as SettingsValues, invalid };
}

/**
 * Writes the given settings in one transaction with one audit row naming each change as
 * old → new. Keys given with the value they already have change nothing and are not audited;
 * when nothing changes, nothing is written.
 */
export async function settingsUpdate(db: AdminDb, update: SettingsUpdate, audit: AuditHook): Promise<SettingsView> {
  await writeTransaction(db, async (trx) => {
    const stored = await storedRows(trx, ALL_KEYS);
    const now = nowUtc();
    // `old` is what was in effect: the default when unset (null for an address), the raw text of a hand-edited row.
    const changes: Record<string, { old: number | string | null; new: number | string | null }> = {};
    for (const key of ALL_KEYS) {
      const value = update[key];
      const before = stored.get(key);
      const unset = unsetValue(key);
      const old = before === undefined ? unset : before.ok ? before.value : before.raw;
      if (value === undefined || value === old) continue;
      changes[key] = { old, new: value };
      // a setting cleared is no row: unset again, as before anyone set it
      if (value === null) {
        await trx.deleteFrom('app_settings').where('setting_key', '=', key).execute();
        continue;
      }
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
