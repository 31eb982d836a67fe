import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DB_USER } from './config';
import { running } from '../../platform/process-tree';

const run = promisify(execFile);

const INSTALL = 'install PostgreSQL: apt-get install -y postgresql (any version from 12 on)';
/** how often the watchdog looks whether the postmaster is still there */
const WATCH_MS = 1000;

export interface Postgres {
  port: number;
  /** the postmaster's pid, from its postmaster.pid (0 while it is down) */
  pid(): number;
  /** `pg_ctl restart -m immediate`: a crash of the database, as far as Temporal can tell */
  restart(): Promise<void>;
  /** from now on a postmaster that ends stays down (Ctrl-C reaches it with the terminal's SIGINT) */
  standDown(): void;
  stop(): Promise<void>;
}

/**
 * The folder of the installed PostgreSQL programs: `pg_ctl` on PATH (Debian links some into
 * /usr/local/bin), else the newest /usr/lib/postgresql/<n>/bin, where Debian's package puts them.
 */
function binDir(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const pgCtl = path.join(dir, 'pg_ctl');
    if (fs.existsSync(pgCtl)) {
      const real = path.dirname(fs.realpathSync(pgCtl));
      if (fs.existsSync(path.join(real, 'initdb'))) return real;
    }
  }
  const debian = '/usr/lib/postgresql';
  const versions = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((v) => fs.existsSync(path.join(debian, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) throw new Error(`no PostgreSQL programs (initdb, pg_ctl) found: ${INSTALL}`);
  return path.join(debian, newest, 'bin');
}

/**
 * PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user the Debian
 * package creates, which then owns the data folder.
 */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(`running as root, and there is no postgres user to run PostgreSQL as: ${INSTALL}`);
  }
}

/** The postgres user must get through every folder above its own (mkdtemp makes them 0700). */
function reachable(dir: string, user: { uid: number; gid: number }): void {
  try {
    execFileSync('test', ['-w', dir], { ...user, stdio: 'ignore' });
  } catch {
    throw new Error(
      `PostgreSQL runs as the postgres user, which cannot reach ${dir}: choose a root whose folders it may enter (chmod o+x)`,
    );
  }
}

/**
 * A private PostgreSQL under `dir`: its own data folder, loopback TCP on `port`, its unix socket in
 * `dir/socket` (never /var/run/postgresql, which a system PostgreSQL may own). Trust authentication:
 * only this machine reaches it, and it holds nothing but a test cluster's state. A postmaster that
 * dies without `restart()` or `stop()` is started again by a watchdog.
 */
export async function startPostgres(dir: string, port: number, say: (line: string) => void): Promise<Postgres> {
  const bin = binDir();
  const user = runAs();
  const data = path.join(dir, 'data');
  const socket = path.join(dir, 'socket');
  const logFile = path.join(dir, 'postgres.log');
  for (const d of [dir, socket]) {
    fs.mkdirSync(d, { recursive: true, mode: 0o700 });
    if (user) fs.chownSync(d, user.uid, user.gid);
  }
  if (user) reachable(dir, user);
  const pg = (program: string, args: string[]) =>
    run(path.join(bin, program), args, { ...(user ?? {}), cwd: dir, env: { ...process.env, LC_ALL: 'C' } });

  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    say(`initdb ${data}`);
    await pg('initdb', ['-D', data, '-U', DB_USER, '--auth=trust', '--encoding=UTF8', '--no-locale']);
  }
  const options = ['-p', String(port), '-k', socket, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'];
  const start = () => pg('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', '-o', options.join(' '), 'start']);
  const pid = (): number => {
    try {
      const found = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return running(found) ? found : 0;
    } catch {
      return 0;
    }
  };
  // it runs in its own session: a run that was killed outright leaves it up, on the old options
  if (pid() !== 0) {
    say('a PostgreSQL of an earlier run is still up on this root: stopping it first');
    await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  }
  await start();
  let busy: Promise<unknown> | null = null;
  let stopping = false;
  const watchdog = setInterval(() => {
    if (stopping || busy || pid() !== 0) return;
    say('PostgreSQL is gone: starting it again');
    // a killed postmaster's backends may hold its shared memory a moment: the next tick tries again
    busy = start()
      .catch((err: Error) => say(`PostgreSQL did not start again: ${err.message.split('\n')[0]}`))
      .finally(() => (busy = null));
  }, WATCH_MS);

  return {
    port,
    pid,
    async restart() {
      await busy;
      // with -l the new postmaster's output goes to the log, not to this pipe, which would stay open
      busy = pg('pg_ctl', ['-D', data, '-l', logFile, '-m', 'immediate', '-w', '-t', '60', 'restart']);
      try {
        await busy;
      } finally {
        busy = null;
      }
    },
    standDown() {
      stopping = true;
      clearInterval(watchdog);
    },
    async stop() {
      stopping = true;
      clearInterval(watchdog);
      await busy?.catch(() => undefined);
      if (pid() !== 0) await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
  };
}
