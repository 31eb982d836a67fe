import crypto from 'node:crypto';
import { deviceDisplayNameSchema } from '../../domain/devices';
import { UNSAFE_TEXT_MESSAGE, unsafeTextChar } from '../../domain/text';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { CredentialStoreUnavailable, DEVICE_ID_RE, DeviceCredentialError } from './device-credentials';

/**
 * Phone-host credentials (docs/phone-hosts.md): the same shape as a device token — 32 random
 * bytes shown once as 64 hex, the DB keeps their SHA-256 — but what it opens is only the host
 * channel `/api/host/…`: report the phones plugged into that machine, fetch the token of a phone
 * an operator approved, report health. Revoking a host revokes every phone it reported.
 */
const BEARER_RE = /^Bearer ([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\.([0-9a-f]{64})$/;

export interface HostCredentialInfo {
  host_id: string;
  display_name: string;
  status: 'ACTIVE' | 'REVOKED';
  created_at: string;
  revoked_at: string | null;
  last_seen_at: string | null;
  metrics_target: string | null;
}

const tokenHash = (raw: Buffer): Buffer => crypto.createHash('sha256').update(raw).digest();

function hostName(raw: string): string {
  const parsed = deviceDisplayNameSchema.safeParse(raw);
  if (!parsed.success)
    throw new DeviceCredentialError(
      'invalid',
      'VALIDATION_FAILED',
      `host name: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
  // the name rule has no word on lone surrogates; the text rule of every outside write path does
  const bad = unsafeTextChar(parsed.data);
  if (bad !== null)
    throw new DeviceCredentialError('invalid', 'VALIDATION_FAILED', `host name: ${UNSAFE_TEXT_MESSAGE} (found ${bad})`);
  return parsed.data;
}

export async function issueHostCredential(
  db: AdminDb,
  actor: AuditActor,
  rawName: string,
): Promise<{ hostId: string; token: string }> {
  const name = hostName(rawName);
  const raw = crypto.randomBytes(32);
  const hostId = crypto.randomUUID();
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto('phone_hosts')
      .values({
        host_id: hostId,
        display_name: name,
        token_sha256: tokenHash(raw),
        status: 'ACTIVE',
        created_at: nowUtc(),
        revoked_at: null,
        last_seen_at: null,
        metrics_target: null,
      })
      .execute();
    await recordAudit(trx, actor, {
      action: 'host.issue',
      target: { kind: 'host', id: hostId },
      details: { display_name: name },
    });
  });
  return { hostId, token: raw.toString('hex') };
}

export async function listHostCredentials(db: AdminDb): Promise<HostCredentialInfo[]> {
  return db
    .selectFrom('phone_hosts')
    .select(['host_id', 'display_name', 'status', 'created_at', 'revoked_at', 'last_seen_at', 'metrics_target'])
    .orderBy('created_at')
    .orderBy('host_id')
    .execute();
}

/** Revokes the host and, in the same transaction, every phone it reported: none of them claims again. */
export async function revokeHostCredential(
  db: AdminDb,
  actor: AuditActor,
  hostId: string,
): Promise<'revoked' | 'already-revoked'> {
  if (!DEVICE_ID_RE.test(hostId))
    throw new DeviceCredentialError('invalid', 'VALIDATION_FAILED', `${JSON.stringify(hostId)} is not a host id`);
  return writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('phone_hosts').select('status').where('host_id', '=', hostId).executeTakeFirst();
    if (!row)
      throw new DeviceCredentialError('not_found', 'HOST_NOT_FOUND', `no host ${hostId}; "host list" shows them`);
    if (row.status === 'REVOKED') return 'already-revoked';
    const now = nowUtc();
    await trx
      .updateTable('phone_hosts')
      .set({ status: 'REVOKED', revoked_at: now })
      .where('host_id', '=', hostId)
      .execute();
    const phones = await trx
      .updateTable('device_credentials')
      .set({ status: 'REVOKED', revoked_at: now })
      .where('status', '=', 'ACTIVE')
      .where('device_id', 'in', trx.selectFrom('host_phones').select('device_id').where('host_id', '=', hostId))
      .executeTakeFirst();
    await recordAudit(trx, actor, {
      action: 'host.revoke',
      target: { kind: 'host', id: hostId },
      details: { phones_revoked: Number(phones.numUpdatedRows) },
    });
    return 'revoked';
  });
}

export type HostAuthResult = { ok: true; hostId: string } | { ok: false };

const DUMMY_HASH = tokenHash(crypto.randomBytes(32));

export class HostAuthenticator {
  constructor(private readonly db: AdminDb) {}

  async authenticate(authorization: string | undefined): Promise<HostAuthResult> {
    const m = authorization === undefined ? null : BEARER_RE.exec(authorization);
    if (!m) return { ok: false };
    const hostId = m[1]!;
    const presented = tokenHash(Buffer.from(m[2]!, 'hex'));
    let row: { token_sha256: Buffer; status: string } | undefined;
    try {
      row = await this.db
        .selectFrom('phone_hosts')
        .select(['token_sha256', 'status'])
        .where('host_id', '=', hostId)
        .executeTakeFirst();
    } catch (err) {
      throw new CredentialStoreUnavailable((err as Error).message);
    }
    const stored = row && row.token_sha256.length === 32 ? row.token_sha256 : DUMMY_HASH;
    const equal = crypto.timingSafeEqual(presented, stored);
    if (!row || !equal || row.status !== 'ACTIVE') return { ok: false };
    return { ok: true, hostId };
  }
}
