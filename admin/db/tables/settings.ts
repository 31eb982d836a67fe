interface AppSettingsTable {
  setting_key: string;
  value_json: string;
  updated_at: string;
}

export interface SettingsTables {
  app_settings: AppSettingsTable;
}
