import { z } from 'zod';
import { conflict, invalidInput, notFound } from '../../domain/api-error';
import { interstitialSchema, type InterstitialData, type TaughtOverlayView } from '../../domain/pdd-overlay';
import { nowUtc } from '../../domain/time';
import { recordAudit, type AuditActor } from '../audit/audit';
import { writeTransaction, type AdminDb } from '../db/database';

/**
 * Popups a person taught from the live screen (docs/api.md §12.3): an overlay entry of one PDD
 * app version's profile, checked by the profile's own rules (domain/pdd-overlay.ts: a close
 * control never accepts, navigates or pays). A taught entry reaches the phones only once an
 * operator reviewed it; from then on every device worker adds it to that version's
 * interstitials, under every guard a profiled popup has (a close control only, never on the final
 * panel, a bounded number per purchase).
 */

/** What a phone's profile may grow by: each entry is one more signature checked on every read. */
const MAX_PER_VERSION = 32;
const NAME_RE = /^[a-z][a-z0-9_]{0,47}$/;

/** The body of 教弹窗: the entry as a profile holds it; stop codes are the profile's to set, never taught. */
export const teachBodySchema = z
  .object({
    name: z.string().regex(NAME_RE, 'lowercase letters, digits and _ (a name engineers read in logs)'),
    signature: z.array(z.unknown()).min(1).max(8),
    close: z.unknown(),
  })
  .strict();

function parseEntry(body: z.infer<typeof teachBodySchema>): InterstitialData {
  const result = interstitialSchema.safeParse({
    name: `taught_${body.name}`,
    signature: body.signature,
    close: body.close,
  });
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidInput('OVERLAY_INVALID', `${issue?.path.join('.') ?? 'entry'}: ${issue?.message ?? 'invalid'}`, {
      field: issue?.path.join('.') ?? null,
    });
  }
  return result.data;
}

type Row = Omit<TaughtOverlayView, 'entry'> & { entry_json: string };

function view(r: Row): TaughtOverlayView {
  return {
    id: r.id,
    app_version: r.app_version,
    name: r.name,
    entry: JSON.parse(r.entry_json) as InterstitialData,
    taught_by: r.taught_by,
    taught_at: r.taught_at,
    reviewed_by: r.reviewed_by,
    reviewed_at: r.reviewed_at,
  };
}

async function requireVersion(trx: AdminDb, version: string): Promise<void> {
  const known = await trx
    .selectFrom('app_versions')
    .select('app_version')
    .where('app_version', '=', version)
    .executeTakeFirst();
  if (!known) throw notFound('UNKNOWN_APP_VERSION', `no phone has registered PDD ${version}`);
}

/** 教弹窗: stored waiting for review (audited `overlay.teach` with the whole entry). */
export async function teachOverlay(
  db: AdminDb,
  actor: AuditActor,
  version: string,
  body: z.infer<typeof teachBodySchema>,
): Promise<TaughtOverlayView> {
  const entry = parseEntry(body);
  return writeTransaction(db, async (trx) => {
    await requireVersion(trx, version);
    const live = await trx
      .selectFrom('taught_overlays')
      .select(['name'])
      .where('app_version', '=', version)
      .where('retired_at', 'is', null)
      .execute();
    if (live.some((r) => r.name === entry.name))
      throw conflict('OVERLAY_NAME_TAKEN', `PDD ${version} already has a taught overlay ${entry.name}`);
    if (live.length >= MAX_PER_VERSION)
      throw conflict('OVERLAY_LIMIT', `PDD ${version} has ${live.length} taught overlays (at most ${MAX_PER_VERSION})`);
    const row = {
      app_version: version,
      name: entry.name,
      entry_json: JSON.stringify(entry),
      taught_by: actor.name,
      taught_at: nowUtc(),
      reviewed_by: null,
      reviewed_at: null,
    };
    const { id } = await trx.insertInto('taught_overlays').values(row).returning('id').executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      action: 'overlay.teach',
      target: { kind: 'app_version', id: version },
      details: { overlay_id: id, entry },
    });
    return view({ id, ...row });
  });
}

async function liveRow(trx: AdminDb, version: string, id: number): Promise<Row> {
  const row = await trx
    .selectFrom('taught_overlays')
    .select(['id', 'app_version', 'name', 'entry_json', 'taught_by', 'taught_at', 'reviewed_by', 'reviewed_at'])
    .where('id', '=', id)
    .where('app_version', '=', version)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('OVERLAY_NOT_FOUND', `no taught overlay ${id} of PDD ${version}`);
  return row;
}

/** 审核启用: from now on the phones close it by themselves (audited `overlay.review`). Reviewing twice keeps the first. */
export async function reviewOverlay(
  db: AdminDb,
  actor: AuditActor,
  version: string,
  id: number,
): Promise<TaughtOverlayView> {
  return writeTransaction(db, async (trx) => {
    const row = await liveRow(trx, version, id);
    if (row.reviewed_at !== null) return view(row);
    const reviewed = { reviewed_by: actor.name, reviewed_at: nowUtc() };
    await trx.updateTable('taught_overlays').set(reviewed).where('id', '=', id).execute();
    await recordAudit(trx, actor, {
      action: 'overlay.review',
      target: { kind: 'app_version', id: version },
      details: { overlay_id: id, name: row.name, taught_by: row.taught_by },
    });
    return view({ ...row, ...reviewed });
  });
}

/** 停用: no phone closes it any more (audited `overlay.retire`). */
export async function retireOverlay(db: AdminDb, actor: AuditActor, version: string, id: number): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const row = await liveRow(trx, version, id);
    await trx.updateTable('taught_overlays').set({ retired_at: nowUtc() }).where('id', '=', id).execute();
    await recordAudit(trx, actor, {
      action: 'overlay.retire',
      target: { kind: 'app_version', id: version },
      details: { overlay_id: id, name: row.name },
    });
  });
}

/** The version's taught overlays not retired, reviewed or not (设备 → 拼多多版本). */
export async function listTaughtOverlays(db: AdminDb, version: string): Promise<TaughtOverlayView[]> {
  const rows = await db
    .selectFrom('taught_overlays')
    .select(['id', 'app_version', 'name', 'entry_json', 'taught_by', 'taught_at', 'reviewed_by', 'reviewed_at'])
    .where('app_version', '=', version)
    .where('retired_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map(view);
}

/** What a device worker adds to this version's profile: the reviewed entries only. */
export async function reviewedOverlays(db: AdminDb, version: string): Promise<InterstitialData[]> {
  return (await listTaughtOverlays(db, version)).filter((o) => o.reviewed_at !== null).map((o) => o.entry);
}
