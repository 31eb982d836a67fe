import crypto from 'node:crypto';
import { recordAudit, type AuditActor } from '../audit/audit';
import { issueHostCredential } from '../auth/host-credentials';
import { writeTransaction, type AdminDb } from '../db/database';
import { approveHostPhone } from './phones';

/**
 * The phone host `npm start` runs for the simulator's phones (docs/phone-hosts.md "Under npm
 * start"). Its credential is issued on the first start and found again by name on the next ones;
 * like the simulated phones' device tokens it is rotated at every start and reaches the phone
 * host through its environment only — the admin keeps the SHA-256, the data dir nothing.
 */
export async function embeddedHostCredential(
  db: AdminDb,
  actor: AuditActor,
  name: string,
): Promise<{ hostId: string; token: string }> {
  const existing = await db
    .selectFrom('phone_hosts')
    .select('host_id')
    .where('display_name', '=', name)
    .where('status', '=', 'ACTIVE')
    .orderBy('created_at')
    .executeTakeFirst();
  if (!existing) return issueHostCredential(db, actor, name);
  const raw = crypto.randomBytes(32);
  await writeTransaction(db, async (trx) => {
    await trx
      .updateTable('phone_hosts')
      .set({ token_sha256: crypto.createHash('sha256').update(raw).digest() })
      .where('host_id', '=', existing.host_id)
      .execute();
    await recordAudit(trx, actor, { action: 'host.rotate', target: { kind: 'host', id: existing.host_id } });
  });
  return { hostId: existing.host_id, token: raw.toString('hex') };
}

/**
 * Approves the phones of `hostId` among `serials` that wait as 待批准, through the operator's
 * approval (audited, here as the system). Returns the serials of `serials` that are approved
 * now, whether by this call or before.
 */
export async function approveEmbeddedPhones(
  db: AdminDb,
  actor: AuditActor,
  hostId: string,
  serials: readonly string[],
): Promise<string[]> {
  if (serials.length === 0) return [];
  const rows = await db
    .selectFrom('host_phones as p')
    .innerJoin('device_credentials as c', 'c.device_id', 'p.device_id')
    .select(['p.device_id', 'p.serial', 'p.approved_at'])
    .where('p.host_id', '=', hostId)
    .where('p.serial', 'in', serials)
    .where('c.status', '=', 'ACTIVE')
    .execute();
  const approved: string[] = [];
  for (const r of rows) {
    if (r.approved_at === null) await approveHostPhone(db, actor, r.device_id);
    approved.push(r.serial);
  }
  return approved;
}
