import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrations } from '../../migrations';
import { checkSchema, openMigratedAdminDb, SchemaError, writeTransaction } from './database';

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-db-')), 'admin.db');
}

describe('admin database', () => {
  it('opens with WAL, foreign keys and a busy timeout', async () => {
    const db = await openMigratedAdminDb(tempFile());
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    expect(fk.rows[0]?.foreign_keys).toBe(1);
    expect(busy.rows[0]?.timeout).toBeGreaterThanOrEqual(5000);
    await db.destroy();
  });

  it('refuses to start on a schema missing a required table (docs/architecture.md §5.1)', async () => {
    const file = tempFile();
    const db = await openMigratedAdminDb(file);
    await sql`drop table app_settings`.execute(db);
    await expect(checkSchema(db)).rejects.toThrow(SchemaError);
    await expect(checkSchema(db)).rejects.toThrow(/app_settings/);
    await db.destroy();
  });

  it('migrating twice is a no-op', async () => {
    const file = tempFile();
    await (await openMigratedAdminDb(file)).destroy();
    const db = await openMigratedAdminDb(file);
    const applied = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(db);
    expect(applied.rows[0]?.n).toBe(Object.keys(migrations).length);
    await db.destroy();
  });

  it('writeTransaction rolls back everything on error and takes the write lock first', async () => {
    const file = tempFile();
    const db = await openMigratedAdminDb(file);
    await expect(
      writeTransaction(db, async (trx) => {
        await trx
          .insertInto('app_settings')
          .values({ setting_key: 'a', value_json: '1', updated_at: '2026-01-01T00:00:00Z' })
          .execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.selectFrom('app_settings').selectAll().execute()).toEqual([]);

    // While we hold BEGIN IMMEDIATE, another process (the CLI beside the admin, say) cannot
    // even begin a write. A separate process, because SQLite's locks are per process.
    const tryBegin = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
      d.pragma('busy_timeout = 0'); try { d.exec('begin immediate'); console.log('began'); } catch (e) { console.log(e.code); }`;
    await writeTransaction(db, async () => {
      const r = spawnSync(process.execPath, ['-e', tryBegin], {
        encoding: 'utf8',
        cwd: path.resolve(__dirname, '../..'),
      });
      expect(r.stdout.trim()).toBe('SQLITE_BUSY');
    });
    const after = spawnSync(process.execPath, ['-e', tryBegin], {
      encoding: 'utf8',
      cwd: path.resolve(__dirname, '../..'),
    });
    expect(after.stdout.trim()).toBe('began');
    await db.destroy();
  });
});
