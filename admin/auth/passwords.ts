import crypto from 'node:crypto';

/**
 * Operator passwords are hashed with scrypt (node:crypto, no native add-on). Parameters are
 * stored with each hash, so they can be raised later without invalidating old ones:
 * N = 2^15, r = 8, p = 1 (32 MiB and ~50–100 ms per hash on the 2-core host), 16-byte salt,
 * 32-byte key. Format: `scrypt$<N>$<r>$<p>$<salt b64>$<key b64>`.
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

// Hashes read back from the DB are bounded so a tampered row cannot make a login eat the host.
const MAX_N = 2 ** 20;
const MAX_R = 16;
const MAX_P = 4;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

function scrypt(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(
      password.normalize('NFC'),
      salt,
      keyLength,
      { N, r, p, maxmem: 256 * N * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT_PARAMS;
  const salt = crypto.randomBytes(saltLength);
  const key = await scrypt(password, salt, N, r, p, keyLength);
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((v) => Number(v)) as [number, number, number];
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const key = Buffer.from(parts[5] ?? '', 'base64');
  const sane =
    [N, r, p].every(Number.isSafeInteger) &&
    N > 1 &&
    N <= MAX_N &&
    (N & (N - 1)) === 0 &&
    r >= 1 &&
    r <= MAX_R &&
    p >= 1 &&
    p <= MAX_P;
  if (!sane || salt.length < 16 || key.length < 16 || key.length > 64) return null;
  return { N, r, p, salt, key };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await scrypt(password, parsed.salt, parsed.N, parsed.r, parsed.p, parsed.key.length);
  return crypto.timingSafeEqual(candidate, parsed.key);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real verification, so "no such user" and "wrong password" cannot
 * be told apart by timing.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
  return false;
}

/** Printable, unambiguous, 128 bits: for the generated first-start admin password. */
export function generatePassword(): string {
  return crypto.randomBytes(16).toString('base64url');
}
