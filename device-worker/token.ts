import path from 'node:path';
import { ConfigError, readConfigFile } from '../platform/config';

/**
 * The device token comes from CMAUTOBUY_DEVICE_TOKEN or a file outside the data dir (secrets
 * never live in data/: README.md, test/security/secrets.test.ts). A file inside the data dir is refused.
 */
export function readDeviceToken(opts: {
  env?: string | undefined;
  file?: string | undefined;
  dataDir: string;
}): string | null {
  if (opts.env && opts.env.trim()) return opts.env.trim();
  if (!opts.file) return null;
  const file = path.resolve(opts.file);
  const data = path.resolve(opts.dataDir) + path.sep;
  if (file.startsWith(data))
    throw new ConfigError(`the token file ${file} is inside the data dir; keep secrets outside ${data}`);
  const token = readConfigFile('--token-file', file).toString('utf8').trim();
  // `npm run cli -- device issue` prints `token=<hex>`: accept that line as well as the bare token
  const m = /^(?:.*\n)?token=([0-9a-f]+)\s*$/m.exec(token);
  return m?.[1] ?? token;
}
