import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { backupAdminDb } from '../../admin/backup/backup';
import { runDbCli } from '../../admin/backup/cli';
import { pruneBackups } from '../../admin/backup/schedule';
import { addUser, listUsers } from '../../admin/auth/users';
import { dataPaths } from '../../platform/data-dir';
import { startTestAdmin, tempDataDir, type TestAdmin } from '../harness';

const ROOT = path.resolve(__dirname, '../..');

/** `npm run cli -- db …` as an engineer runs it: its own process, on the admin's data dir. */
function cli(dataDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'admin/cli.ts'), ...args], {
    env: { ...process.env, CMAUTOBUY_DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

const SYSTEM = { kind: 'system' as const, name: 'backup test' };
const names = async (admin: TestAdmin) => (await listUsers(admin.db)).map((u) => u.username);

describe('admin database backup and restore (npm run cli -- db backup|restore)', () => {
  let admin: TestAdmin | undefined;
  afterEach(async () => {
    await admin?.close();
    admin = undefined;
  });

  it('backs up while the admin runs; restored into the stopped admin, the first rows are back and the later ones gone', async () => {
    const dataDir = tempDataDir('backup');
    admin = await startTestAdmin({ dataDir, runWorker: false });
    await addUser(admin.db, SYSTEM, 'before-backup', 'password-before-0');
    const file = path.join(tempDataDir('backups'), 'admin-copy.db');

    const backup = cli(dataDir, 'db', 'backup', file);
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.out).toContain(`backup=${file}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    await addUser(admin.db, SYSTEM, 'after-backup', 'password-after-00');

    // the running admin holds the database: a restore now is refused and changes nothing
    const refused = cli(dataDir, 'db', 'restore', file);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/stop the admin/);
    expect(await names(admin)).toEqual(expect.arrayContaining(['before-backup', 'after-backup']));

    await admin.close();
    admin = undefined;
    const restored = cli(dataDir, 'db', 'restore', file);
    expect(restored).toMatchObject({ code: 0 });
    const kept = fs.readdirSync(dataDir).filter((f) => f.startsWith('admin.db.before-restore-'));
    expect(kept).toHaveLength(1);

    admin = await startTestAdmin({ dataDir, runWorker: false });
    const after = await names(admin);
    expect(after).toContain('before-backup');
    expect(after).not.toContain('after-backup');
  });

  it('refuses a backup that fails PRAGMA integrity_check, leaving the database as it was', async () => {
    const dataDir = tempDataDir('backup');
    admin = await startTestAdmin({ dataDir, runWorker: false });
    await addUser(admin.db, SYSTEM, 'still-here', 'password-still-00');
    const file = path.join(tempDataDir('backups'), 'corrupt.db');
    await backupAdminDb(dataPaths(dataDir).adminDb, file);
    // an index entry that no longer matches its row: what a torn write leaves behind
    const db = new Database(file);
    db.exec(
      "CREATE TABLE zz (a TEXT); INSERT INTO zz VALUES ('alpha-key'), ('bravo-key'), ('charl-key'); CREATE INDEX zz_a ON zz (a);",
    );
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'zz_a'").get() as {
      rootpage: number;
    };
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const bytes = fs.readFileSync(file);
    const page = bytes.subarray((rootpage - 1) * pageSize, rootpage * pageSize);
    const at = page.indexOf('bravo-key');
    expect(at).toBeGreaterThan(0);
    page.write('bravo-kez', at);
    fs.writeFileSync(file, bytes);
    await admin.close();
    admin = undefined;

    const c = capture();
    expect(await runDbCli(['db', 'restore', file], dataDir, c.io)).toBe(1);
    expect(c.err.join('\n')).toMatch(/integrity_check failed/);
    admin = await startTestAdmin({ dataDir, runWorker: false });
    expect(await names(admin)).toContain('still-here');
  });

  it('refuses a backup written by newer code (a migration this code does not know)', async () => {
    const dataDir = tempDataDir('backup');
    admin = await startTestAdmin({ dataDir, runWorker: false });
    const file = path.join(tempDataDir('backups'), 'newer.db');
    await backupAdminDb(dataPaths(dataDir).adminDb, file);
    const db = new Database(file);
    db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(
      '9999_from_the_future',
      new Date().toISOString(),
    );
    db.close();
    await admin.close();
    admin = undefined;

    const c = capture();
    expect(await runDbCli(['db', 'restore', file], dataDir, c.io)).toBe(1);
    expect(c.err.join('\n')).toMatch(/newer schema.*9999_from_the_future/);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('admin.db.before-restore-'))).toEqual([]);
  });

  it('writes the copy 0600 from its first byte, in a 0700 folder, whatever the umask', async () => {
    const dataDir = tempDataDir('backup');
    admin = await startTestAdmin({ dataDir, runWorker: false });
    await addUser(admin.db, SYSTEM, 'in-the-copy', 'password-in-copy-0');
    // a sizeable database, so the copy takes many steps of SQLite's backup and is watched mid-write
    const db = new Database(dataPaths(dataDir).adminDb);
    db.exec('CREATE TABLE bench_blob (b BLOB)');
    const insert = db.prepare('INSERT INTO bench_blob VALUES (randomblob(65536))');
    db.transaction(() => {
      for (let i = 0; i < 640; i++) insert.run();
    })();
    db.close();
    const dir = tempDataDir('backups');
    const file = path.join(dir, 'admin-copy.db');

    const seen: Array<{ name: string; mode: number; dir: boolean; size: number }> = [];
    const look = () => {
      const walk = (d: string) => {
        for (const name of safeReaddir(d)) {
          const full = path.join(d, name);
          let st: fs.Stats;
          try {
            st = fs.lstatSync(full);
          } catch {
            continue; // renamed or removed between readdir and lstat
          }
          seen.push({ name: path.relative(dir, full), mode: st.mode & 0o777, dir: st.isDirectory(), size: st.size });
          if (st.isDirectory()) walk(full);
        }
      };
      walk(dir);
    };
    const oldUmask = process.umask(0o022);
    const timer = setInterval(look, 1);
    try {
      await backupAdminDb(dataPaths(dataDir).adminDb, file);
    } finally {
      clearInterval(timer);
      process.umask(oldUmask);
    }
    look();

    // observed while being written: a temp file with data, not only the finished copy
    const midWrite = seen.filter((o) => !o.dir && o.name !== 'admin-copy.db' && o.size > 0);
    expect(midWrite.length).toBeGreaterThan(0);
    const loose = seen.filter((o) => (o.dir ? o.mode !== 0o700 : o.mode !== 0o600));
    expect(loose).toEqual([]);
    expect(seen.filter((o) => o.dir).length).toBeGreaterThan(0);
    expect(fs.readdirSync(dir)).toEqual(['admin-copy.db']);
    expect(fs.statSync(file).size).toBeGreaterThan(40 * 1024 * 1024);
    const copy = new Database(file, { readonly: true });
    expect(copy.prepare("SELECT 1 FROM users WHERE username = 'in-the-copy'").get()).toBeTruthy();
    copy.close();
  });

  it('refuses a backup onto the live database, its files, a link to it or a file the admin has open; a restore from them too', async () => {
    const dataDir = tempDataDir('backup');
    admin = await startTestAdmin({ dataDir, runWorker: false });
    await addUser(admin.db, SYSTEM, 'still-here', 'password-still-00');
    const dbFile = dataPaths(dataDir).adminDb;
    const elsewhere = tempDataDir('backups');
    const symlink = path.join(elsewhere, 'looks-like-a-backup.db');
    fs.symlinkSync(dbFile, symlink);
    const hardLink = path.join(dataDir, 'hard-link.db');
    fs.linkSync(dbFile, hardLink);
    // this process holds the admin database open, so what it has open stands for the admin's own files (its log)
    const log = path.join(elsewhere, 'admin.log');
    fs.writeFileSync(log, 'a log line\n');
    const logFd = fs.openSync(log, 'a');
    const before = fs.statSync(dbFile);
    try {
      const viaCli = cli(dataDir, 'db', 'backup', dbFile);
      expect(viaCli.code).toBe(1);
      expect(viaCli.err).toMatch(/^BACKUP_FILE_IN_USE: /);
      for (const target of [
        `${dbFile}-wal`,
        `${dbFile}-shm`,
        `${dbFile}-journal`,
        path.join(dataDir, '..', path.basename(dataDir), 'admin.db'),
        symlink,
        hardLink,
        log,
      ]) {
        const c = capture();
        expect({ target, code: await runDbCli(['db', 'backup', target], dataDir, c.io) }).toEqual({ target, code: 1 });
        expect(c.err.join('\n')).toMatch(/^BACKUP_FILE_IN_USE: /);
      }
    } finally {
      fs.closeSync(logFd);
    }
    // nothing changed: the same file, its rows, the link still a link, the log as it was, no temp left
    expect(fs.statSync(dbFile).ino).toBe(before.ino);
    expect(await names(admin)).toContain('still-here');
    expect(fs.lstatSync(symlink).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(log, 'utf8')).toBe('a log line\n');
    expect(fs.readdirSync(dataDir).filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(fs.existsSync(`${dbFile}-journal`)).toBe(false);

    // the same check guards a restore: from the database itself it would move its own source away
    await admin.close();
    admin = undefined;
    for (const source of [dbFile, symlink]) {
      const c = capture();
      expect(await runDbCli(['db', 'restore', source], dataDir, c.io)).toBe(1);
      expect(c.err.join('\n')).toMatch(/^BACKUP_FILE_IN_USE: /);
    }
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('admin.db.before-restore-'))).toEqual([]);
    admin = await startTestAdmin({ dataDir, runWorker: false });
    expect(await names(admin)).toContain('still-here');
  });

  it('keeps the newest N scheduled backups', () => {
    const dir = tempDataDir('backups');
    const stamps = ['20261101T000000Z', '20261102T000000Z', '20261103T000000Z', '20261104T000000Z'];
    for (const s of stamps) fs.writeFileSync(path.join(dir, `admin-${s}.db`), '');
    fs.writeFileSync(path.join(dir, 'hand-made.db'), '');
    expect(pruneBackups(dir, 2)).toBe(2);
    expect(fs.readdirSync(dir).sort()).toEqual([
      'admin-20261103T000000Z.db',
      'admin-20261104T000000Z.db',
      'hand-made.db',
    ]);
  });
});
