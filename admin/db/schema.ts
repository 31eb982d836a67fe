/**
 * Row types of the admin database, one interface per table, kept in step with
 * `migrations/`. Add the table name to REQUIRED_TABLES when a migration creates one, so the
 * startup self-check refuses a database the code does not match.
 */
export interface AppSettingsTable {
  setting_key: string;
  value_json: string;
  updated_at: string;
}

export interface AdminDatabase {
  app_settings: AppSettingsTable;
}

export const REQUIRED_TABLES: ReadonlyArray<keyof AdminDatabase> = ['app_settings'];
