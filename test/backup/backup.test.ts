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
