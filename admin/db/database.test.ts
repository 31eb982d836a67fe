import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrations } from '../../migrations';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import {
  checkSchema,
  openAdminReads,
  openMigratedAdminDb,
  SchemaError,
  writeTransaction,
  type AdminDb,
} from './database';
import { LockWaitingSqliteDialect } from './lock-wait';
import type { AdminDatabase } from './schema';
import { cachingStatements } from './statement-cache';

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-db-')), 'admin.db');
}

describe('admin database', () => {
  it('opens with WAL, foreign keys, and no busy timeout of SQLite itself: the wait is ours (./lock-wait.ts)', async () => {
    const db = await openMigratedAdminDb(tempFile());
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    expect(fk.rows[0]?.foreign_keys).toBe(1);
    expect(busy.rows[0]?.timeout).toBe(0);
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

  describe('another process holding the write lock', () => {
    // SQLite's locks are per process: the holder is a process of its own, as the admin worker is.
    const holdLock = async (file: string, ms: number): Promise<ChildProcess> => {
      const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
        d.exec('begin immediate'); console.log('locked');
        setTimeout(() => { d.exec('commit'); console.log('released'); }, ${ms});`;
      const child = spawn(process.execPath, ['-e', script], { cwd: path.resolve(__dirname, '../..') });
      let out = '';
      child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
      while (!out.includes('locked')) await once(child.stdout!, 'data');
      return child;
    };
    const exited = async (child: ChildProcess) => {
      if (child.exitCode === null) await once(child, 'exit');
      expect(child.exitCode).toBe(0);
    };
    const setting = (key: string) => ({ setting_key: key, value_json: '1', updated_at: '2026-01-01T00:00:00Z' });

    /** Timer callbacks that ran while `work` was pending: none if it blocked the event loop. */
    const ticksWhile = async <T>(work: Promise<T>): Promise<{ result: T; ticks: number }> => {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      try {
        return { result: await work, ticks };
      } finally {
        clearInterval(timer);
      }
    };

    it('a write waits for the lock with the event loop turning, then commits: autocommit and writeTransaction alike', async () => {
      const file = tempFile();
      const db = await openMigratedAdminDb(file);
      let holder = await holdLock(file, 400);
      const single = await ticksWhile(db.insertInto('app_settings').values(setting('a')).execute());
      expect(single.ticks).toBeGreaterThanOrEqual(5);
      await exited(holder);

      holder = await holdLock(file, 400);
      const inTransaction = await ticksWhile(
        writeTransaction(db, (trx) => trx.insertInto('app_settings').values(setting('b')).execute()),
      );
      expect(inTransaction.ticks).toBeGreaterThanOrEqual(5);
      await exited(holder);
      expect((await db.selectFrom('app_settings').select('setting_key').execute()).map((r) => r.setting_key)).toEqual([
        'a',
        'b',
      ]);
      await db.destroy();
    });

    it('a read on the read-only connection answers while a write still waits for the lock', async () => {
      const file = tempFile();
      const db = await openMigratedAdminDb(file);
      const reads = openAdminReads(file, db);
      await db.insertInto('app_settings').values(setting('before')).execute();
      const holder = await holdLock(file, 600);
      const order: string[] = [];
      const write = db
        .insertInto('app_settings')
        .values(setting('during'))
        .execute()
        .then(() => order.push('write'));
      await new Promise((r) => setTimeout(r, 20)); // the write is waiting now, holding the main connection
      const seen = await reads.selectFrom('app_settings').select('setting_key').execute();
      order.push('read');
      expect(seen.map((r) => r.setting_key)).toEqual(['before']);
      await write;
      expect(order).toEqual(['read', 'write']);
      // the read-only connection refuses writes: nothing meant for the main one can go there
      await expect(reads.insertInto('app_settings').values(setting('x')).execute()).rejects.toMatchObject({
        code: 'SQLITE_READONLY',
      });
      await exited(holder);
      await reads.destroy();
      await db.destroy();
    });

    it('gives up with SQLITE_BUSY once the wait is over, and writes nothing', async () => {
      const file = tempFile();
      await (await openMigratedAdminDb(file)).destroy();
      const database = new SQLite(file);
      const db: AdminDb = new Kysely<AdminDatabase>({
        dialect: new LockWaitingSqliteDialect(database, cachingStatements(database), 150),
      });
      const holder = await holdLock(file, 1_500);
      await expect(db.insertInto('app_settings').values(setting('late')).execute()).rejects.toMatchObject({
        code: 'SQLITE_BUSY',
      });
      await exited(holder);
      expect(await db.selectFrom('app_settings').selectAll().execute()).toEqual([]);
      await db.destroy();
    });
  });
});
