import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ServerBuild } from './build';
import { DATABASES, DB_USER } from './config';

const run = promisify(execFile);

/**
 * Both databases and their schemas, with the server's own tool, as Temporal's docs set up a SQL
 * cluster: create the database, `setup-schema -v 0.0` (the version table), then `update-schema`
 * through every versioned step of this release. A database already set up on this root only gets
 * `update-schema`, which applies nothing when it is current (or the steps of a newer release).
 */
export async function ensureSchemas(
  build: ServerBuild,
  root: string,
  postgresPort: number,
  say: (line: string) => void,
): Promise<void> {
  const steps: [database: string, versioned: string][] = [
    [DATABASES.default, 'temporal'],
    [DATABASES.visibility, 'visibility'],
  ];
  for (const [database, folder] of steps) {
    const tool = (...args: string[]) =>
      run(
        build.sqlTool,
        [
          '--plugin',
          'postgres12',
          '--ep',
          '127.0.0.1',
          '-p',
          String(postgresPort),
          '-u',
          DB_USER,
          '--db',
          database,
          ...args,
        ],
        { maxBuffer: 4 << 20 },
      );
    const marker = path.join(root, `schema-${database}.created`);
    if (!fs.existsSync(marker)) {
      say(`creating database ${database}`);
      await tool('create').catch((err: Error) => {
        // a start that failed after this step left the database behind: go on with it
        if (!/already exists/.test(err.message)) throw err;
      });
      await tool('setup-schema', '-v', '0.0');
      fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
    }
    await tool('update-schema', '-d', path.join(build.schemaDir, 'postgresql', 'v12', folder, 'versioned'));
  }
}
