import type { AppVersionView } from '../../domain/devices';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';
import { conflict, notFound } from '../../domain/api-error';

/**
 * The release gate per PDD app version (docs/api.md §12.2). A page profile that
 * matches a new app version is not proof that a purchase on it is right: live submits on a
 * version stay refused at the fence until a dry run reached the final panel on a phone with that
 * version and an operator released it. Nothing releases a version by itself.
 */

/** What a worker reports in its registration capabilities for each app version it has a page profile of. */
const PROFILE_CAPABILITY_PREFIX = 'profile:';

/** A version no phone really runs: the worker registers it when the app is missing or unreadable. */
const NOT_A_VERSION = new Set(['not installed', 'unknown']);

/** Remembers a version a phone registered with; seeing it again changes nothing. */
export async function noteAppVersionSeen(trx: AdminDb, appVersion: string): Promise<void> {
  if (NOT_A_VERSION.has(appVersion)) return;
  await trx
    .insertInto('app_versions')
    .values({ app_version: appVersion, first_seen_at: nowUtc() })
    .onConflict((oc) => oc.column('app_version').doNothing())
    .execute();
}

/**
 * A dry run of `taskId` passed (reached its final panel, all gates) on the phone `deviceId`. It is
 * credited to `appVersion`, the version the phone read for that very run; only a run from a
 * workflow that did not report it falls back to the version the phone last registered with.
 */
export async function noteDryRunPassed(
  trx: AdminDb,
  deviceId: string,
  taskId: string,
  appVersion: string | undefined,
): Promise<void> {
  const version =
    appVersion ??
    (await trx.selectFrom('devices').select('app_version').where('device_id', '=', deviceId).executeTakeFirst())
      ?.app_version;
  if (!version || NOT_A_VERSION.has(version)) return;
  const now = nowUtc();
  await trx
    .insertInto('app_versions')
    .values({
      app_version: version,
      first_seen_at: now,
      last_dry_run_passed_at: now,
      last_dry_run_task_id: taskId,
    })
    .onConflict((oc) =>
      oc.column('app_version').doUpdateSet({ last_dry_run_passed_at: now, last_dry_run_task_id: taskId }),
    )
    .execute();
}

/** Null when live submits on `appVersion` may go on; otherwise why not, for the fence's refusal. */
export async function releaseGateRefusal(trx: AdminDb, appVersion: string): Promise<string | null> {
  const row = await trx
    .selectFrom('app_versions')
    .select('released_at')
    .where('app_version', '=', appVersion)
    .executeTakeFirst();
  return row?.released_at
    ? null
    : `PDD app version ${JSON.stringify(appVersion)} has not been released for live purchases`;
}

export async function listAppVersions(db: AdminDb): Promise<AppVersionView[]> {
  const rows = await db.selectFrom('app_versions').selectAll().orderBy('app_version').execute();
  const devices = await db
    .selectFrom('devices as d')
    .innerJoin('device_credentials as c', 'c.device_id', 'd.device_id')
    .select('d.capabilities_json')
    .where('c.status', '=', 'ACTIVE')
    .execute();
  const profiled = new Set<string>();
  for (const d of devices) {
    const caps: unknown = JSON.parse(d.capabilities_json);
    if (!Array.isArray(caps)) continue;
    for (const c of caps)
      if (typeof c === 'string' && c.startsWith(PROFILE_CAPABILITY_PREFIX))
        profiled.add(c.slice(PROFILE_CAPABILITY_PREFIX.length));
  }
  return rows.map((r) => ({
    app_version: r.app_version,
    profile: profiled.has(r.app_version),
    last_dry_run_passed_at: r.last_dry_run_passed_at,
    last_dry_run_task_id: r.last_dry_run_task_id,
    released: r.released_at !== null,
    released_at: r.released_at,
  }));
}

/** 发布 (operator, audited): only a version a phone reported and a dry run passed on. Releasing twice keeps the first. */
export async function releaseAppVersion(db: AdminDb, actor: AuditActor, appVersion: string): Promise<AppVersionView> {
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('app_versions')
      .selectAll()
      .where('app_version', '=', appVersion)
      .executeTakeFirst();
    if (!row)
      throw notFound('UNKNOWN_APP_VERSION', `no phone has reported PDD app version ${JSON.stringify(appVersion)}`);
    if (!row.last_dry_run_passed_at)
      throw conflict(
        'NO_DRY_RUN_ON_VERSION',
        `no dry run has reached the final panel on PDD ${appVersion}: run one on a phone with this version first`,
      );
    if (row.released_at) return;
    await trx
      .updateTable('app_versions')
      .set({ released_at: nowUtc(), released_by: actor.name })
      .where('app_version', '=', appVersion)
      .execute();
    await recordAudit(trx, actor, {
      action: 'app_version.release',
      target: { kind: 'app_version', id: appVersion },
      details: { last_dry_run_passed_at: row.last_dry_run_passed_at, dry_run_task_id: row.last_dry_run_task_id },
    });
  });
  const view = (await listAppVersions(db)).find((v) => v.app_version === appVersion);
  return view as AppVersionView;
}

/**
 * 撤回发布 (operator, audited): live submits on the version are refused at the fence again
 * (`releaseGateRefusal` reads the same column). The dry run stays: it can be released again.
 * Withdrawing a version that is not released changes nothing.
 */
export async function withdrawAppVersion(db: AdminDb, actor: AuditActor, appVersion: string): Promise<AppVersionView> {
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('app_versions')
      .select(['released_at', 'released_by'])
      .where('app_version', '=', appVersion)
      .executeTakeFirst();
    if (!row)
      throw notFound('UNKNOWN_APP_VERSION', `no phone has reported PDD app version ${JSON.stringify(appVersion)}`);
    if (!row.released_at) return;
    await trx
      .updateTable('app_versions')
      .set({ released_at: null, released_by: null })
      .where('app_version', '=', appVersion)
      .execute();
    await recordAudit(trx, actor, {
      action: 'app_version.withdraw',
      target: { kind: 'app_version', id: appVersion },
      details: { released_at: row.released_at, released_by: row.released_by },
    });
  });
  const view = (await listAppVersions(db)).find((v) => v.app_version === appVersion);
  return view as AppVersionView;
}
