import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_app_settings';

/**
 * Append-only (seed 004 §2: a migration once released is never edited — add a new one).
 * A static list rather than a folder scan, so the same code works under tsx, ts-jest and
 * a compiled build.
 */
export const migrations: Record<string, Migration> = {
  '0001_app_settings': m0001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
