import { conflict, notFound } from '../../domain/api-error';
import { recordAudit, type AuditActor } from '../audit/audit';
import { renameDevice } from './device-credentials';
import { writeTransaction, type AdminDb } from '../db/database';

/**
 * The PDD account a phone is logged in as (设备, `PATCH /api/devices/:deviceId`): what the pay
 * list shows beside each order, so a person paying opens the right account. Audited; a revoked
 * phone keeps what it had.
 */
async function setDevicePddAccount(
  db: AdminDb,
  actor: AuditActor,
  deviceId: string,
  account: string | null,
): Promise<{ pdd_account: string | null }> {
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('device_credentials')
      .select(['status', 'pdd_account'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!row) throw notFound('DEVICE_NOT_FOUND', `no device ${deviceId}`);
    if (row.status !== 'ACTIVE') throw conflict('DEVICE_REVOKED', `device ${deviceId} is revoked`);
    if (row.pdd_account !== account) {
      await trx
        .updateTable('device_credentials')
        .set({ pdd_account: account })
        .where('device_id', '=', deviceId)
        .execute();
      await recordAudit(trx, actor, {
        action: 'device.pdd_account',
        target: { kind: 'device', id: deviceId },
        details: { from: row.pdd_account, to: account },
      });
    }
    return { pdd_account: account };
  });
}

/** `PATCH /api/devices/:deviceId`: its name (改名), its PDD account, or both; each audited as itself. */
export async function changeDevice(
  db: AdminDb,
  actor: AuditActor,
  deviceId: string,
  change: { display_name?: string | undefined; pdd_account?: string | null | undefined },
): Promise<{ device_id: string; display_name?: string; pdd_account?: string | null }> {
  const renamed = change.display_name !== undefined ? await renameDevice(db, actor, deviceId, change.display_name) : {};
  const account =
    change.pdd_account !== undefined ? await setDevicePddAccount(db, actor, deviceId, change.pdd_account) : {};
  return { device_id: deviceId, ...renamed, ...account };
}
