import { ActivityFailure, CancellationScope, deprecatePatch, isCancellation } from '@temporalio/workflow';
import type { DeviceClaim } from '../../domain/contracts/device-activities';
import { claimPhone, releasePhone } from '../device-claim';
import type { PurchaseRun } from './run';

// ——— the phone: claimed once, released once ———

/** Waits for a phone until the authorization expires; null when none came (or a cancel came first). */
export async function waitForPhone(run: PurchaseRun): Promise<DeviceClaim | null> {
  const waitMs = Math.max(0, Date.parse(run.input.expiresAt) - Date.now());
  try {
    run.claim = await run.phoneScope.run(() => claimPhone(Math.max(1_000, waitMs)));
  } catch (err) {
    // a claim that timed out is an ActivityFailure: no phone before the authorization expired
    if (!isCancellation(err) && !(err instanceof ActivityFailure)) throw err;
  }
  return run.claim;
}

/**
 * Lets the phone go as soon as nothing more is done on it; safe to call from every ending. The
 * release retries until the phone host takes it, so it runs beside the rest: a dead host must
 * not hold back the operator's next step (docs/versioning.md, `release-in-background`).
 */
export async function release(run: PurchaseRun): Promise<void> {
  const claim = run.claim;
  if (claim && !run.released) {
    run.released = true;
    deprecatePatch('release-in-background');
    run.releasing = CancellationScope.nonCancellable(() => releasePhone(claim));
  }
}

/** The release running beside the rest, awaited before the workflow closes. */
export async function releaseSettled(run: PurchaseRun): Promise<void> {
  await run.releasing;
}
