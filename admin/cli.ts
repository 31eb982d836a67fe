import { ConfigError } from '../platform/config';
import { dataPaths } from '../platform/data-dir';
import { describeError } from '../platform/errors';
import { temporalConnection } from '../temporal/connection';
import { hostSetupFacts } from './hosts/setup';
import { parseEnv } from './config/env';
import { runCli } from './auth/cli-commands';
import { runDbCli } from './backup/cli';
import { openMigratedAdminDb } from './db/database';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password (input is shown; prefer piping it in): ');
  const chunks: Buffer[] = [];
  if (process.stdin.isTTY) {
    // One line from a terminal, not until EOF.
    return new Promise((resolve) => {
      process.stdin.once('data', (chunk: Buffer) => {
        process.stdin.pause();
        resolve(chunk.toString('utf8'));
      });
    });
  }
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `npm run cli -- …`: user and device administration on the admin DB (CMAUTOBUY_DATA_DIR), and its
 * backup and restore (admin/backup/cli.ts).
 * Safe beside a running admin: the DB is in WAL mode with a busy timeout, and every write is a
 * short BEGIN IMMEDIATE transaction.
 */
async function main(): Promise<number> {
  const env = parseEnv();
  const argv = process.argv.slice(2);
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  // before the database is opened: a restore needs it closed by every process, this one too
  if (argv[0] === 'db') return runDbCli(argv, env.CMAUTOBUY_DATA_DIR, io);
  const db = await openMigratedAdminDb(dataPaths(env.CMAUTOBUY_DATA_DIR).adminDb);
  try {
    return await runCli(db, argv, {
      readStdin,
      ...io,
      hostSetupFacts: () => hostSetupFacts(db, temporalConnection(env)),
    });
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : `cli failed: ${describeError(err)}`);
    process.exit(1);
  },
);
