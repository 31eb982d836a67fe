import type { SubmissionLedger } from '../../device-worker/ledger/submissions';
import { TapGuard } from '../../device-worker/pdd/purchase/guard';
import { purchaseProfileFor, type PurchaseProfile } from '../../device-worker/pdd/purchase/profile';
import { PurchaseSession } from '../../device-worker/pdd/purchase/purchase-session';
import type { FinalPanelReading, PurchaseTarget } from '../../domain/contracts/device-activities';
import type { DeviceContext } from './context';
import type { PhoneRun } from './phone-activity';

/** One purchase activity's view of the phone: its session and the guard every input passes. */
interface PurchasePhone {
  session: PurchaseSession;
  pp: PurchaseProfile;
  guard: TapGuard;
}

/**
 * The phone as a purchase activity drives it: every input goes through one TapGuard, which
 * consults the submission ledger before each one — after `irreversible_action_at` only reads
 * pass. `readOnly`: after the fence (and for reads) an interstitial is read, never closed.
 */
export function openPurchasePhone(
  ctx: DeviceContext,
  submissions: SubmissionLedger,
  run: PhoneRun,
  target: PurchaseTarget,
  readOnly = true,
): PurchasePhone {
  const profile = run.profile();
  const pp = purchaseProfileFor(profile);
  const guard = new TapGuard({
    authorizationId: target.authorizationId,
    irreversible: (a) => submissions.irreversible(a),
    pkg: profile.pkg,
    submitLabel: pp.text.submitLabel,
    readOnlyUrl: pp.pendingOrdersUrl,
  });
  const session = run.track(
    (phone, memory) => new PurchaseSession(guard.wrap(phone), profile, run.clock, run.steps, ctx.timing, memory),
  );
  session.setPurchaseProfile(pp);
  if (readOnly) session.readOnlyInterruptions();
  return { session, pp, guard };
}

/** What the fence approved for this authorization, as the ledger kept it with the tap. */
export function approvedReading(
  submissions: SubmissionLedger,
  target: PurchaseTarget,
): { expected: FinalPanelReading | null; tappedAt: string | null } {
  const row = submissions.get(target.authorizationId);
  return {
    expected: row ? (JSON.parse(row.expected_json) as FinalPanelReading) : null,
    tappedAt: row?.tapped_at ?? null,
  };
}
