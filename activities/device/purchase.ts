import { Context } from '@temporalio/activity';
import { DeviceError } from '../../device-worker/errors';
import type { SubmissionLedger } from '../../device-worker/ledger/submissions';
import type { EvidenceUploader } from '../../device-worker/pdd/purchase/evidence';
import { leaveFinalPanel, prepareFinalPanel } from '../../device-worker/pdd/purchase/prepare';
import {
  observeAfterTap,
  orderContext,
  readPendingOrderList,
  submitFinalPanel,
} from '../../device-worker/pdd/purchase/submit';
import type {
  DevicePurchaseActivities,
  FinalPanelReading,
  PreparedPurchase,
  PurchaseTarget,
} from '../../domain/contracts/device-activities';
import { upgradePurchaseInput } from '../../migrations/payloads/purchase-input';
import type { DeviceContext } from './context';
import { onPhone, type PhoneRun } from './phone-activity';
import { ActivityEvidence } from './purchase-evidence';
import { approvedReading, openPurchasePhone } from './purchase-phone';

/** what submitOnce keeps back of its start-to-close time for the ledger, the log and the reply */
const SUBMIT_REPORT_RESERVE_MS = 20_000;

export interface PurchaseDeps {
  /** the `submissions` table of this phone's ledger.db */
  submissions: SubmissionLedger;
  /** null: the worker runs without an admin (screenshots stay unuploaded) */
  evidence: EvidenceUploader | null;
}

/**
 * The phone side of a purchase (DevicePurchaseActivities in domain/contracts/device-activities.ts).
 * Every call runs inside `onPhone`, so the caller must own the open claim and every failure —
 * a stop before the fence included — leaves as one device failure; every input goes through one
 * TapGuard (./purchase-phone.ts), which consults the submission ledger before each one — after
 * `irreversible_action_at` only reads pass.
 */
export function createPurchaseActivities(ctx: DeviceContext, deps: PurchaseDeps): DevicePurchaseActivities {
  return {
    async preparePurchase(recorded) {
      const input = current(recorded);
      return onPhone(ctx, 'preparePurchase', input, (run) => prepareOnPhone(ctx, deps, run, input.target));
    },

    async submitOnce(recorded) {
      const input = current(recorded);
      const deadline = tapBy();
      return onPhone(ctx, 'submitOnce', input, async (run) => {
        const { session, pp, guard } = openPurchasePhone(ctx, deps.submissions, run, input.target);
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

    async observeAfterSubmit(recorded) {
      const input = current(recorded);
      return onPhone(ctx, 'observeAfterSubmit', input, async (run) => {
        const { session, pp } = openPurchasePhone(ctx, deps.submissions, run, input.target);
        const evidence = new ActivityEvidence(ctx, deps.evidence, input.target, session);
        const approved = approvedReading(deps.submissions, input.target);
        const seen = await observeAfterTap(session, pp, { target: input.target, ...approved }, (kind) =>
          evidence.take(kind),
        );
        await evidence.settle();
        return { ...seen, evidenceIds: evidence.ids, counters: run.clock.snapshot() };
      });
    },

    async readPendingOrders(recorded) {
      const input = current(recorded);
      return onPhone(ctx, 'readPendingOrders', input, async (run) => {
        const { session, pp } = openPurchasePhone(ctx, deps.submissions, run, input.target);
        const expected = approvedReading(deps.submissions, input.target).expected;
        const orders = await readPendingOrderList(session, pp, orderContext(input.target, expected));
        const ledger = deps.submissions.get(input.target.authorizationId);
        return { orders, counters: run.clock.snapshot(), irreversibleActionAt: ledger?.irreversible_action_at ?? null };
      });
    },
  };
}

/**
 * The activity's input with its target under today's names: an activity scheduled before a
 * deploy is handed the target its workflow recorded then (migrations/payloads/purchase-input.ts).
 */
function current<I extends { target: PurchaseTarget }>(recorded: I): I {
  return { ...recorded, target: upgradePurchaseInput(recorded.target) };
}

/**
 * preparePurchase on the phone: refused outright once the authorization is past
 * `irreversible_action_at` (prepare taps); every stop before the fence keeps the phone's screen
 * where it stopped; the interstitials it closed are logged and reported.
 */
async function prepareOnPhone(
  ctx: DeviceContext,
  deps: PurchaseDeps,
  run: PhoneRun,
  target: PurchaseTarget,
): Promise<PreparedPurchase> {
  const reading: Partial<FinalPanelReading> = { appVersion: run.appVersion ?? '' };
  run.keepReading(reading);
  if (deps.submissions.irreversible(target.authorizationId)) {
    throw new DeviceError(
      'SUBMIT_REFUSED',
      `authorization ${target.authorizationId} is past irreversible_action_at; prepare would tap`,
    );
  }
  const { session, pp } = openPurchasePhone(ctx, deps.submissions, run, target, false);
  const evidence = new ActivityEvidence(ctx, deps.evidence, target, session);
  let full: FinalPanelReading;
  try {
    full = await prepareFinalPanel(session, pp, target, reading, {
      evidence: (kind) => evidence.take(kind),
      preview: () => evidence.preview(),
    });
    await evidence.settle();
    // a dry run is done here: the phone leaves the final panel by the safe exit before the workflow releases it
    if (target.mode === 'dry_run') await leaveFinalPanel(session);
  } catch (err) {
    // every stop before the fence keeps the phone's screen where it stopped
    await evidence.take('SAFETY_STOP');
    await evidence.settle();
    throw err;
  }
  const closed = run.steps.entries.filter((e) => e.step === 'dismiss_interstitial');
  if (closed.length > 0)
    ctx.log.info(
      { taskId: target.taskId, interstitials: closed.map((e) => e.details) },
      'interstitials closed before the fence',
    );
  const interstitialsClosed = closed.map((e) => ({ name: String(e.details?.name ?? 'unknown'), at: e.at }));
  return {
    ok: true as const,
    reading: full,
    evidenceIds: evidence.ids,
    counters: run.clock.snapshot(),
    interstitialsClosed,
  };
}

const workflowId = () => Context.current().info.workflowExecution?.workflowId ?? '';

/**
 * The last moment submitOnce may tap: its start-to-close deadline (counted from when the
 * attempt was scheduled, which is earlier than its start) less the time it needs to record and
 * report the tap. A tap after the server timed out the attempt would be a tap nobody hears of.
 */
function tapBy(): number {
  const info = Context.current().info;
  return info.currentAttemptScheduledTimestampMs + info.startToCloseTimeoutMs - SUBMIT_REPORT_RESERVE_MS;
}
