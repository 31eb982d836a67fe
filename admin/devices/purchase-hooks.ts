import { isAttentionStopCode, type AttentionReason } from '../../domain/devices';
import { canonicalReason } from '../../domain/purchase/reasons';
import type { AdminDb } from '../db/database';
import { noteDryRunPassed, releaseGateRefusal } from './app-versions';
import { setAttention } from './attention';

/**
 * What the purchase's admin activities (activities/admin/purchase/) tell the device side of
 * the admin, kept here so those activities change by one call each.
 */

/** The fence's refusal reason that the workflow reports as FENCE_REFUSED but the operator should read precisely. */
const FENCE_REASON = 'APP_VERSION_NOT_RELEASED';

/** A stop on a page only a person can clear puts the phone on 需处理: the queue waits for a healthy phone. */
export async function attentionAfterStop(
  db: AdminDb,
  attemptId: string,
  failure: { code: string; detail: string },
): Promise<void> {
  // the same interruption as the device code, under an older spelling, or as its own code
  const code = canonicalReason(failure.code);
  if (!isAttentionStopCode(code)) return;
  const attempt = await db
    .selectFrom('purchase_attempts')
    .select(['device_id', 'task_id'])
    .where('id', '=', attemptId)
    .executeTakeFirst();
  if (!attempt) return;
  await setAttention(db, attempt.device_id, code satisfies AttentionReason, {
    detail: failure.detail.slice(0, 500),
    taskId: attempt.task_id,
  });
}

/**
 * The release gate at the fence: a live submit on a PDD app version nobody released is refused,
 * and the refusal is kept on the attempt so the stop shows its own reason (see `stopReason`).
 * Null: the version is released.
 */
export async function releaseGateAtFence(trx: AdminDb, attemptId: string, appVersion: string): Promise<string | null> {
  const refusal = await releaseGateRefusal(trx, appVersion);
  if (refusal)
    await trx
      .updateTable('purchase_attempts')
      .set({ failure_code: FENCE_REASON, failure_detail: `${refusal}; nothing was tapped` })
      .where('id', '=', attemptId)
      .execute();
  return refusal;
}

/**
 * The reason to store for a stop: the workflow names every fence refusal but a revoked device
 * FENCE_REFUSED, so a refusal by the release gate is read back from its attempt.
 */
export async function stopReason(
  trx: AdminDb,
  authorizationId: string,
  reasonCode: string | null | undefined,
): Promise<string | null | undefined> {
  if (reasonCode !== 'FENCE_REFUSED') return reasonCode;
  const attempt = await trx
    .selectFrom('purchase_attempts')
    .select('failure_code')
    .where('authorization_id', '=', authorizationId)
    .executeTakeFirst();
  return attempt?.failure_code === FENCE_REASON ? FENCE_REASON : reasonCode;
}

/**
 * A dry run that passed is the proof a release needs for the app version its phone read on that
 * run (`appVersion`, reported with the attempt's `dry_run_passed` step).
 */
export async function afterDryRunPassed(
  db: AdminDb,
  attempt: { task_id: string; device_id: string },
  appVersion: string | undefined,
): Promise<void> {
  await noteDryRunPassed(db, attempt.device_id, attempt.task_id, appVersion);
}
