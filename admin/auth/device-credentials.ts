import crypto from 'node:crypto';
import type { ApiErrorCode } from '../../domain/api-errors';
import { deviceDisplayNameSchema } from '../../domain/devices';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { ApiError } from '../../domain/api-error';

/**
 * Device credentials (docs/security.md "Devices"): a token is 32 random bytes, shown once as 64 lowercase
 * hex; the DB keeps the SHA-256 of the raw bytes. Every request looks the credential up again,
 * so a revocation holds for every request that starts after it commits.
 */
export const DEVICE_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BEARER_RE = /^Bearer ([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\.([0-9a-f]{64})$/;

/**
 * Refused by the credential store. An ApiError, so the 设备 page's routes answer with it as is
 * and the CLI prints the same message.
 */
export class DeviceCredentialError extends ApiError {
  constructor(kind: 'invalid' | 'not_found' | 'conflict', code: ApiErrorCode, message: string) {
    super(kind, code, message);
  }
}

const notADeviceId = (deviceId: string) =>
  new DeviceCredentialError(
    'invalid',
    'VALIDATION_FAILED',
    `${JSON.stringify(deviceId)} is not a device id; "device list" shows them`,
  );
const noSuchDevice = (deviceId: string) =>
  new DeviceCredentialError('not_found', 'DEVICE_NOT_FOUND', `no device ${deviceId}; "device list" shows them`);

/** The one check of a display name, for the CLI and the API alike. */
function displayName(raw: string): string {
  const parsed = deviceDisplayNameSchema.safeParse(raw);
  if (!parsed.success)
    throw new DeviceCredentialError(
      'invalid',
      'VALIDATION_FAILED',
      `device name: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
  return parsed.data;
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

export async function issueDeviceCredential(
  db: AdminDb,
  actor: AuditActor,
  rawName: string,
): Promise<IssuedDeviceCredential> {
  const name = displayName(rawName);
  const raw = crypto.randomBytes(32);
  const deviceId = crypto.randomUUID();
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto('device_credentials')
      .values({
        device_id: deviceId,
        display_name: name,
        token_sha256: tokenHash(raw),
        status: 'ACTIVE',
        created_at: nowUtc(),
        revoked_at: null,
      })
      .execute();
    await recordAudit(trx, actor, {
      action: 'device.issue',
      target: { kind: 'device', id: deviceId },
      details: { display_name: name },
    });
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

export async function revokeDeviceCredential(
  db: AdminDb,
  actor: AuditActor,
  deviceId: string,
): Promise<'revoked' | 'already-revoked'> {
  if (!DEVICE_ID_RE.test(deviceId)) throw notADeviceId(deviceId);
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('device_credentials')
      .select(['status'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!row) throw noSuchDevice(deviceId);
    if (row.status === 'REVOKED') return 'already-revoked';
    await trx
      .updateTable('device_credentials')
      .set({ status: 'REVOKED', revoked_at: nowUtc() })
      .where('device_id', '=', deviceId)
      .execute();
    await recordAudit(trx, actor, { action: 'device.revoke', target: { kind: 'device', id: deviceId } });
    return 'revoked';
  });
}

/**
 * A new display name for an active device. The token and everything the phone keeps under its
 * device id stay as they are; the audit row keeps the old name so a renamed phone can be traced.
 */
export async function renameDevice(
  db: AdminDb,
  actor: AuditActor,
  deviceId: string,
  rawName: string,
): Promise<{ device_id: string; display_name: string }> {
  if (!DEVICE_ID_RE.test(deviceId)) throw notADeviceId(deviceId);
  const name = displayName(rawName);
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('device_credentials')
      .select(['status', 'display_name'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!row) throw noSuchDevice(deviceId);
    if (row.status !== 'ACTIVE')
      throw new DeviceCredentialError(
        'conflict',
        'DEVICE_REVOKED',
        `device ${deviceId} is revoked; issue a new one instead of renaming it`,
      );
    if (row.display_name !== name) {
      await trx
        .updateTable('device_credentials')
        .set({ display_name: name })
        .where('device_id', '=', deviceId)
        .execute();
      await recordAudit(trx, actor, {
        action: 'device.rename',
        target: { kind: 'device', id: deviceId },
        details: { from: row.display_name, to: name },
      });
    }
    return { device_id: deviceId, display_name: name };
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
      row = await this.db
        .selectFrom('device_credentials')
        .select(['token_sha256', 'status'])
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
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
export async function rotateDeviceCredential(
  db: AdminDb,
  actor: AuditActor,
  deviceId: string,
): Promise<IssuedDeviceCredential> {
  const raw = crypto.randomBytes(32);
  await writeTransaction(db, async (trx) => {
    const r = await trx
      .updateTable('device_credentials')
      .set({ token_sha256: tokenHash(raw) })
      .where('device_id', '=', deviceId)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirst();
    if (r.numUpdatedRows !== 1n)
      throw new DeviceCredentialError(
        'not_found',
        'DEVICE_NOT_FOUND',
        `no active device ${deviceId}; "device list" shows them`,
      );
    await recordAudit(trx, actor, { action: 'device.rotate', target: { kind: 'device', id: deviceId } });
  });
  return { deviceId, token: raw.toString('hex') };
}
