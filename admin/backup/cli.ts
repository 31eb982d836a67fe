import { dataPaths } from '../../platform/data-dir';
import type { CliIo } from '../auth/cli-commands';
import { BackupError, backupAdminDb, restoreAdminDb } from './backup';

const DB_USAGE = [
  '  db backup FILE         a consistent copy of the admin database (0600), while the admin runs;',
  '                         refuses FILE if it is the database, one of its files or a file the admin has open',
  '  db restore FILE        replace the admin database with FILE: only with the admin stopped;',
  '                         refuses a file that fails PRAGMA integrity_check or has a newer schema',
].join('\n');

/**
 * `npm run cli -- db backup FILE` / `db restore FILE`: run without opening (or migrating) the
 * admin database first — a restore needs the file closed by everyone, this process included.
 */
export async function runDbCli(argv: string[], dataDir: string, io: Pick<CliIo, 'out' | 'err'>): Promise<number> {
  const [, verb, file, ...rest] = argv;
  if ((verb !== 'backup' && verb !== 'restore') || !file || rest.length > 0) {
    io.err(`usage: npm run cli -- db backup FILE | db restore FILE\n${DB_USAGE}`);
    return 2;
  }
  const dbFile = dataPaths(dataDir).adminDb;
  try {
    if (verb === 'backup') {
      const { file: written, bytes } = await backupAdminDb(dbFile, file);
      io.out(`backup=${written} bytes=${bytes}`);
      return 0;
    }
    const { previous } = await restoreAdminDb(file, dbFile);
    io.out(`restored=${dbFile}${previous ? ` previous=${previous}` : ''}`);
    io.out('start the admin now; read docs/operations.md "Backup and restore" for the open workflows');
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    io.err(`${err.code}: ${err.message}`);
    return 1;
  }
}
