import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../platform/config';

/**
 * The AES-256 keys of Temporal payloads (docs/security.md "Temporal payloads"), written
 * `id1:base64key,id2:base64key`: the first key encrypts, every key decrypts, so a rotation adds
 * a new key in front and drops the old one only when no open workflow and no kept history
 * still needs it.
 */
export interface PayloadKeyRing {
  /** the id written into every payload this process encrypts */
  encryptKeyId: string;
  keys: ReadonlyMap<string, Buffer>;
}

export const PAYLOAD_KEYS_VAR = 'CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS';
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const KEY_BYTES = 32;

/** Parses the variable's format; the error names the entry by position, never the key. */
export function parsePayloadKeys(value: string, source = PAYLOAD_KEYS_VAR): PayloadKeyRing {
  const keys = new Map<string, Buffer>();
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) throw new ConfigError(`${source}: no key (expected id1:base64key,id2:base64key)`);
  entries.forEach((entry, i) => {
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    const key = Buffer.from(colon > 0 ? entry.slice(colon + 1) : '', 'base64');
    if (!KEY_ID.test(id))
      throw new ConfigError(`${source}: entry ${i + 1} has no valid key id (letters, digits, . _ -, before the colon)`);
    if (key.length !== KEY_BYTES)
      throw new ConfigError(
        `${source}: key ${id} is not ${KEY_BYTES} bytes of base64 (AES-256); make one with \`openssl rand -base64 32\``,
      );
    if (keys.has(id)) throw new ConfigError(`${source}: key id ${id} appears twice`);
    keys.set(id, key);
  });
  return { encryptKeyId: entries[0]!.slice(0, entries[0]!.indexOf(':')), keys };
}

/** A new ring entry `id:base64key` (the id says when it was made, which helps a rotation). */
export function newPayloadKeyEntry(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `k${day}-${randomBytes(3).toString('hex')}:${randomBytes(KEY_BYTES).toString('base64')}`;
}

/** `data/keys/temporal-payload.keys`: the one secret the data dir may hold (embedded default only). */
function payloadKeyFile(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'keys', 'temporal-payload.keys');
}

/**
 * The embedded default's key file, made on first start: 0600 in a 0700 folder, created with
 * O_EXCL so two processes starting together agree on one key. Returns the ring's text.
 */
export function ensurePayloadKeyFile(dataDir: string): string {
  const file = payloadKeyFile(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(file), 0o700);
  try {
    fs.writeFileSync(file, `${newPayloadKeyEntry()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  fs.chmodSync(file, 0o600);
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * The ring a process uses: the variable when set (production: from its secret store); else,
 * for the embedded dev server only, the data dir's key file (made when missing). Against a
 * cluster a missing variable stops the start: payloads are never written in clear.
 */
export function resolvePayloadKeys(opts: {
  value: string | undefined;
  dataDir: string;
  embedded: boolean;
}): PayloadKeyRing {
  if (opts.value) return parsePayloadKeys(opts.value);
  if (!opts.embedded)
    throw new ConfigError(
      `${PAYLOAD_KEYS_VAR} is required with a Temporal cluster: every payload is encrypted (docs/operations.md "Payload keys"); ` +
        'the same value on the admin and on every phone host',
    );
  const file = payloadKeyFile(opts.dataDir);
  return parsePayloadKeys(ensurePayloadKeyFile(opts.dataDir), file);
}
