import { Context } from '@temporalio/activity';
import { DeviceError } from '../../device-worker/errors';
import type { SubmissionLedger } from '../../device-worker/ledger/submissions';
import { profileForVersion } from '../../device-worker/pdd/profile';
import { screenMayBeCaptured, type EvidenceUploader } from '../../device-worker/pdd/purchase/evidence';
import { TapGuard } from '../../device-worker/pdd/purchase/guard';
import { prepareFinalPanel, type EvidenceKind } from '../../device-worker/pdd/purchase/prepare';
import { purchaseProfileFor } from '../../device-worker/pdd/purchase/profile';
import { PurchaseSession } from '../../device-worker/pdd/purchase/purchase-session';
import {
  observeAfterTap,
  orderContext,
  readPendingOrderList,
  submitFinalPanel,
} from '../../device-worker/pdd/purchase/submit';
import type {
  DevicePurchaseActivities,
  FinalPanelReading,
  PurchaseTarget,
} from '../../domain/contracts/device-activities';
import { nowUtc } from '../../domain/time';
import type { UiDump } from '../../device-worker/pdd/ui-xml';
import type { DeviceContext } from './context';
import { onPhone, type PhoneRun } from './phone-activity';

/** what submitOnce keeps back of its start-to-close time for the ledger, the log and the reply */
const SUBMIT_REPORT_RESERVE_MS = 20_000;

export interface PurchaseDeps {
  /** the `submissions` table of this phone's ledger.db */
  submissions: SubmissionLedger;
  /** null: the worker runs without an admin (screenshots stay unuploaded) */
  evidence: EvidenceUploader | null;
}

/** The screen the session last proved; null before its first dump. */
function lastDumpOf(session: PurchaseSession): UiDump | null {
  try {
    return session.lastDump();
  } catch {
    return null;
  }
}

/**
 * The phone side of a purchase (DevicePurchaseActivities in domain/contracts/device-activities.ts).
 * Every call runs inside `onPhone`, so the caller must own the open claim and every failure —
 * a stop before the fence included — leaves as one device failure; every input goes through one
 * TapGuard, which consults the submission ledger before each one — after
 * `irreversible_action_at` only reads pass.
 */
export function createPurchaseActivities(ctx: DeviceContext, deps: PurchaseDeps): DevicePurchaseActivities {
  /** `readOnly`: after the fence (and for reads) an interstitial is read, never closed */
  const open = (run: PhoneRun, target: PurchaseTarget, readOnly = true) => {
    const profile = profileForVersion(run.appVersion);
    const pp = purchaseProfileFor(profile);
    const guard = new TapGuard({
      authorizationId: target.authorizationId,
      irreversible: (a) => deps.submissions.irreversible(a),
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
  };

  const evidenceTaker =
    (target: PurchaseTarget, ids: string[], session: PurchaseSession) => async (kind: EvidenceKind) => {
      if (!deps.evidence) return;
      try {
        if (!screenMayBeCaptured(lastDumpOf(session), session.profile)) {
          ctx.log.info(
            { kind, taskId: target.taskId },
            'no evidence screenshot: the phone shows a payment page, another app or nothing known',
          );
          return;
        }
        const png = await ctx.adb.screencap();
        const id = await deps.evidence.upload(png, {
          taskId: target.taskId,
          attemptId: target.attemptId,
          kind,
          capturedAt: nowUtc(),
        });
        if (id) ids.push(id);
      } catch (err) {
        ctx.log.warn(
          { err: (err as Error).message, kind, taskId: target.taskId },
          'evidence screenshot failed; the purchase goes on',
        );
      }
    };

  /** What the fence approved for this authorization, as the ledger kept it with the tap. */
  const approved = (target: PurchaseTarget): { expected: FinalPanelReading | null; tappedAt: string | null } => {
    const row = deps.submissions.get(target.authorizationId);
    return {
      expected: row ? (JSON.parse(row.expected_json) as FinalPanelReading) : null,
      tappedAt: row?.tapped_at ?? null,
    };
  };

  const workflowId = () => Context.current().info.workflowExecution?.workflowId ?? '';

  /**
   * The last moment submitOnce may tap: its start-to-close deadline (counted from when the
   * attempt was scheduled, which is earlier than its start) less the time it needs to record and
   * report the tap. A tap after the server timed out the attempt would be a tap nobody hears of.
   */
  const tapBy = () => {
    const info = Context.current().info;
    return info.currentAttemptScheduledTimestampMs + info.startToCloseTimeoutMs - SUBMIT_REPORT_RESERVE_MS;
  };

  return {
    async preparePurchase(input) {
      const { target } = input;
      return onPhone(ctx, 'preparePurchase', input, async (run) => {
        const reading: Partial<FinalPanelReading> = { appVersion: run.appVersion ?? '' };
        run.keepReading(reading);
        const evidenceIds: string[] = [];
        if (deps.submissions.irreversible(target.authorizationId)) {
          throw new DeviceError(
            'SUBMIT_REFUSED',
            `authorization ${target.authorizationId} is past irreversible_action_at; prepare would tap`,
          );
        }
        const { session, pp } = open(run, target, false);
        const evidence = evidenceTaker(target, evidenceIds, session);
        let full: FinalPanelReading;
        try {
          full = await prepareFinalPanel(session, pp, target, reading, { evidence });
        } catch (err) {
          // every stop before the fence keeps the phone's screen where it stopped
          await evidence('SAFETY_STOP');
          throw err;
        }
        const closed = run.steps.entries.filter((e) => e.step === 'dismiss_interstitial');
        if (closed.length > 0)
          ctx.log.info(
            { taskId: target.taskId, interstitials: closed.map((e) => e.details) },
            'interstitials closed before the fence',
          );
        const interstitialsClosed = closed.map((e) => ({ name: String(e.details?.name ?? 'unknown'), at: e.at }));
        return { ok: true as const, reading: full, evidenceIds, counters: run.clock.snapshot(), interstitialsClosed };
      });
    },

    async submitOnce(input) {
      const deadline = tapBy();
      return onPhone(ctx, 'submitOnce', input, async (run) => {
        const { session, pp, guard } = open(run, input.target);
        const done = await submitFinalPanel(session, pp, guard, deps.submissions, {
          target: input.target,
          submissionId: input.submissionId,
          expected: input.expected,
          workflowId: workflowId(),
          tapBy: deadline,
        });
        ctx.log.info(
          { taskId: input.target.taskId, authorizationId: input.target.authorizationId, ...done },
          'submitted once',
        );
        return { tappedAt: done.tappedAt, counters: run.clock.snapshot() };
      });
    },

    async observeAfterSubmit(input) {
      return onPhone(ctx, 'observeAfterSubmit', input, async (run) => {
        const evidenceIds: string[] = [];
        const { session, pp } = open(run, input.target);
        const seen = await observeAfterTap(
          session,
          pp,
          { target: input.target, ...approved(input.target) },
          evidenceTaker(input.target, evidenceIds, session),
        );
        return { ...seen, evidenceIds, counters: run.clock.snapshot() };
      });
    },

    async readPendingOrders(input) {
      return onPhone(ctx, 'readPendingOrders', input, async (run) => {
        const { session, pp } = open(run, input.target);
        const orders = await readPendingOrderList(
          session,
          pp,
          orderContext(input.target, approved(input.target).expected),
        );
        const ledger = deps.submissions.get(input.target.authorizationId);
        return { orders, counters: run.clock.snapshot(), irreversibleActionAt: ledger?.irreversible_action_at ?? null };
      });
    },
  };
}
