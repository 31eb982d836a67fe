import crypto from 'node:crypto';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';

/**
 * Device credentials (seed 002 §5.1): a token is 32 random bytes, shown once as 64 lowercase
 * hex; the DB keeps the SHA-256 of the raw bytes. Every request looks the credential up again,
 * so a revocation holds for every request that starts after it commits.
 */
export const DEVICE_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BEARER_RE = /^Bearer ([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\.([0-9a-f]{64})$/;

export class DeviceCredentialError extends Error {
  override readonly name = 'DeviceCredentialError';
}

export interface IssuedDeviceCredential {
  deviceId: string;
  /** 64 lowercase hex; exists only in this return value */
  token: string;
}

export interface DeviceCredentialInfo {
  device_id: string;
  display_name: string;
  status: 'ACTIVE' | 'REVOKED';
  created_at: string;
  revoked_at: string | null;
}

function tokenHash(raw: Buffer): Buffer {
  return crypto.createHash('sha256').update(raw).digest();
}

export async function issueDeviceCredential(db: AdminDb, actor: AuditActor, displayName: string): Promise<IssuedDeviceCredential> {
  const name = displayName.trim();
  if (name.length < 1 || name.length > 100) throw new DeviceCredentialError('device name must be 1–100 characters');
  const raw = crypto.randomBytes(32);
  const deviceId = crypto.randomUUID();
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto('device_credentials')
      .values({ device_id: deviceId, display_name: name, token_sha256: tokenHash(raw), status: 'ACTIVE', created_at: nowUtc(), revoked_at: null })
      .execute();
    await recordAudit(trx, actor, { action: 'device.issue', target: { kind: 'device', id: deviceId }, details: { display_name: name } });
  });
  return { deviceId, token: raw.toString('hex') };
}

export async function listDeviceCredentials(db: AdminDb): Promise<DeviceCredentialInfo[]> {
  return db
    .selectFrom('device_credentials')
    .select(['device_id', 'display_name', 'status', 'created_at', 'revoked_at'])
    .orderBy('created_at')
    .orderBy('device_id')
    .execute();
}

export async function revokeDeviceCredential(db: AdminDb, actor: AuditActor, deviceId: string): Promise<'revoked' | 'already-revoked'> {
  if (!DEVICE_ID_RE.test(deviceId)) throw new DeviceCredentialError(`${JSON.stringify(deviceId)} is not a device id; "device list" shows them`);
  return writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('device_credentials').select(['status']).where('device_id', '=', deviceId).executeTakeFirst();
    if (!row) throw new DeviceCredentialError(`no device ${deviceId}; "device list" shows them`);
    if (row.status === 'REVOKED') return 'already-revoked';
    await trx.updateTable('device_credentials').set({ status: 'REVOKED', revoked_at: nowUtc() }).where('device_id', '=', deviceId).execute();
    await recordAudit(trx, actor, { action: 'device.revoke', target: { kind: 'device', id: deviceId } });
    return 'revoked';
  });
}

/** The credential store could not answer: the request fails closed with 503. */
export class CredentialStoreUnavailable extends Error {
  override readonly name = 'CredentialStoreUnavailable';
}

export type DeviceAuthResult = { ok: true; deviceId: string } | { ok: false };

// Compared against when the id is unknown, so that path does the same work as a wrong token.
const DUMMY_HASH = tokenHash(crypto.randomBytes(32));

export class DeviceAuthenticator {
  constructor(
    private readonly db: AdminDb,
    /** injectable only so a test can prove both failure paths compare exactly once */
    private readonly compare: (a: Buffer, b: Buffer) => boolean = crypto.timingSafeEqual,
  ) {}

  async authenticate(authorization: string | undefined): Promise<DeviceAuthResult> {
    const m = authorization === undefined ? null : BEARER_RE.exec(authorization);
    if (!m) return { ok: false };
    const deviceId = m[1]!;
    const presented = tokenHash(Buffer.from(m[2]!, 'hex'));
    let row: { token_sha256: Buffer; status: string } | undefined;
    try {
      row = await this.db.selectFrom('device_credentials').select(['token_sha256', 'status']).where('device_id', '=', deviceId).executeTakeFirst();
    } catch (err) {
      throw new CredentialStoreUnavailable((err as Error).message);
    }
    const stored = row && row.token_sha256.length === 32 ? row.token_sha256 : DUMMY_HASH;
    const equal = this.compare(presented, stored);
    if (!row || !equal || row.status !== 'ACTIVE') return { ok: false };
    return { ok: true, deviceId };
  }
}

/**
 * A new token for an existing, active device (the old one stops working when this commits).
 * `npm start` uses it for the simulated phones so their device ids — and with them each phone's
 * ledger and claims — survive a restart, while no token ever has to be stored.
 */
export async function rotateDeviceCredential(db: AdminDb, actor: AuditActor, deviceId: string): Promise<IssuedDeviceCredential> {
  const raw = crypto.randomBytes(32);
  await writeTransaction(db, async (trx) => {
    const r = await trx
      .updateTable('device_credentials')
      .set({ token_sha256: tokenHash(raw) })
      .where('device_id', '=', deviceId)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirst();
    if (r.numUpdatedRows !== 1n) throw new DeviceCredentialError(`no active device ${deviceId}; "device list" shows them`);
    await recordAudit(trx, actor, { action: 'device.rotate', target: { kind: 'device', id: deviceId } });
  });
  return { deviceId, token: raw.toString('hex') };
}
