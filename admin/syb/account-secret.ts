import { ValueError } from '@temporalio/common';
import { nowUtc } from '../../domain/time';
import { openJson, sealJson, type SealedValue } from '../../temporal/codec/sealed-value';
import type { AdminDb } from '../db/database';

/**
 * The SYB password set on 设置, in `syb_account_secret` (migrations/0140), sealed with the
 * payload key: the admin writes it, the admin worker — the process that runs the syncs — reads
 * it, and either survives a restart of the other. Neither the clear password nor anything it
 * could be recovered from without the payload key reaches data/, a log or a Temporal payload.
 */
export type StoredSybSecret =
  /** never set on 设置: only the environment's password can apply */
  | { kind: 'none' }
  /** a change of address or user name without the password dropped it */
  | { kind: 'dropped' }
  /** the password, with the address and user name it was given for (sealed together: one binding) */
  | { kind: 'held'; url: string | null; username: string | null; password: string }
  /** sealed under a key this process's ring does not hold (a rotation dropped it, a restored backup) */
  | { kind: 'unreadable'; keyId: string };

export interface SybSecretInput {
  url: string | null;
  username: string | null;
  password: string;
}

/** Sealed outside the write transaction (the codec is async), written inside it. */
export async function sealSybSecret(secret: SybSecretInput): Promise<SealedValue> {
  return sealJson({ url: secret.url, username: secret.username, password: secret.password });
}

/** The sealed password, or null for the dropped marker; in the caller's transaction. */
export async function writeSybSecret(trx: AdminDb, sealed: SealedValue | null): Promise<void> {
  const row = { key_id: sealed?.keyId ?? null, sealed: sealed?.sealed ?? null, updated_at: nowUtc() };
  await trx
    .insertInto('syb_account_secret')
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

export async function readSybSecret(db: AdminDb): Promise<StoredSybSecret> {
  const row = await db
    .selectFrom('syb_account_secret')
    .select(['key_id', 'sealed'])
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!row) return { kind: 'none' };
  if (row.key_id === null || row.sealed === null) return { kind: 'dropped' };
  const opened = await openSecret({ keyId: row.key_id, sealed: Buffer.from(row.sealed) });
  return opened ?? { kind: 'unreadable', keyId: row.key_id };
}

/**
 * After a key rotation (a new key leads the ring), seals the password again under the new key,
 * so the old key can leave the ring once no workflow needs it. Idempotent, and safe when both
 * processes start together: the row is replaced only while it still holds what was read.
 * Returns what it read (null: no sealed password), so the caller reports an unreadable one once.
 */
export async function resealSybSecret(db: AdminDb): Promise<StoredSybSecret | null> {
  const row = await db
    .selectFrom('syb_account_secret')
    .select(['key_id', 'sealed'])
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!row?.key_id || !row.sealed) return null;
  const old = { keyId: row.key_id, sealed: Buffer.from(row.sealed) };
  const secret = await openSecret(old);
  if (!secret) return { kind: 'unreadable', keyId: old.keyId };
  const fresh = await sealSybSecret(secret);
  if (fresh.keyId === old.keyId) return secret;
  await db
    .updateTable('syb_account_secret')
    .set({ key_id: fresh.keyId, sealed: fresh.sealed, updated_at: nowUtc() })
    .where('id', '=', 1)
    .where('key_id', '=', old.keyId)
    .where('sealed', '=', old.sealed)
    .execute();
  return secret;
}

async function openSecret(sealed: SealedValue): Promise<Extract<StoredSybSecret, { kind: 'held' }> | null> {
  let value: unknown;
  try {
    value = await openJson(sealed);
  } catch (err) {
    if (err instanceof ValueError) return null;
    throw err;
  }
  const v = value as Partial<Record<'url' | 'username' | 'password', unknown>> | null;
  const textOrNull = (x: unknown) => (typeof x === 'string' ? x : null);
  if (typeof v?.password !== 'string') return null;
  return { kind: 'held', url: textOrNull(v.url), username: textOrNull(v.username), password: v.password };
}
