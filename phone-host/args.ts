import path from 'node:path';
import { z } from 'zod';
import { logLevelEnvShape, parseConfig, parseFlags, port, readConfigFile, ConfigError } from '../platform/config';

const FLAGS = ['admin-url', 'token-file', 'adb-host', 'adb-port', 'data-dir', 'metrics-port', 'metrics-host'] as const;

const schema = z.object({
  '--admin-url': z.url({ error: 'required: the admin as this machine reaches it (CMAUTOBUY_ADMIN_PUBLIC_URL)' }),
  '--token-file': z.string().optional(),
  '--adb-host': z.string().default('127.0.0.1'),
  '--adb-port': port.min(1).default(5037),
  '--data-dir': z.string().default('./data'),
  '--metrics-port': port.default(0),
  '--metrics-host': z.string().default('127.0.0.1'),
  ...logLevelEnvShape,
});

export interface PhoneHostConfig {
  adminUrl: string;
  hostId: string;
  token: string;
  adb: { host: string; port: number };
  dataDir: string;
  /** 0: any free port */
  metrics: { host: string; port: number };
  logLevel: string;
}

/**
 * The token file holds the two lines `npm run cli -- host issue` printed (`host_id=…`,
 * `token=…`). Like a device token it must live outside the data dir.
 */
export function parseHostToken(text: string): { hostId: string; token: string } {
  const hostId = /^host_id=([0-9a-f-]{36})\s*$/m.exec(text)?.[1];
  const token = /^token=([0-9a-f]{64})\s*$/m.exec(text)?.[1];
  if (!hostId || !token)
    throw new ConfigError('--token-file must hold the host_id=… and token=… lines `npm run cli -- host issue` printed');
  return { hostId, token };
}

/**
 * The credential comes from `--token-file`, or — for a supervisor that hands it over like a
 * device token, in the environment only (`npm start`) — from `CMAUTOBUY_HOST_TOKEN`, holding
 * the same two lines.
 */
function hostCredential(
  tokenFile: string | undefined,
  env: NodeJS.ProcessEnv,
  dataDir: string,
): { hostId: string; token: string } {
  if (tokenFile === undefined) {
    const fromEnv = env['CMAUTOBUY_HOST_TOKEN'];
    if (!fromEnv)
      throw new ConfigError(
        'phone host options: --token-file is required: the file holding what `npm run cli -- host issue` printed',
      );
    return parseHostToken(fromEnv);
  }
  const file = path.resolve(tokenFile);
  if (file.startsWith(dataDir + path.sep))
    throw new ConfigError(`the token file ${file} is inside the data dir; keep secrets outside ${dataDir}`);
  return parseHostToken(readConfigFile('--token-file', file).toString('utf8'));
}

export function parsePhoneHostArgs(argv: readonly string[], env: NodeJS.ProcessEnv): PhoneHostConfig {
  const { flags } = parseFlags(argv, FLAGS);
  const c = parseConfig(
    schema,
    {
      ...env,
      ...flags,
      '--admin-url': flags['--admin-url'] ?? env['CMAUTOBUY_ADMIN_PUBLIC_URL'],
      '--data-dir': flags['--data-dir'] ?? env['CMAUTOBUY_DATA_DIR'],
    },
    {
      what: 'phone host options',
      hint: 'usage: npm run phone-host -- --admin-url URL --token-file FILE [--adb-host H] [--adb-port P] [--data-dir D] [--metrics-port N]',
    },
  );
  const dataDir = path.resolve(c['--data-dir']);
  return {
    adminUrl: c['--admin-url'],
    ...hostCredential(c['--token-file'], env, dataDir),
    adb: { host: c['--adb-host'], port: c['--adb-port'] },
    dataDir,
    metrics: { host: c['--metrics-host'], port: c['--metrics-port'] },
    logLevel: c.CMAUTOBUY_LOG_LEVEL,
  };
}
