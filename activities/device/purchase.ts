import { Context } from '@temporalio/activity';
import type { DeviceCounters } from '../../device-worker/counters';
import { DeviceError, isDeviceError } from '../../device-worker/errors';
import { SubmissionRefused, type SubmissionLedger } from '../../device-worker/ledger/submissions';
import { profileForVersion } from '../../device-worker/pdd/profile';
import type { EvidenceUploader } from '../../device-worker/pdd/purchase/evidence';
import { TapGuard, TapRefused } from '../../device-worker/pdd/purchase/guard';
import { prepareFinalPanel, type EvidenceKind } from '../../device-worker/pdd/purchase/prepare';
import { purchaseProfileFor } from '../../device-worker/pdd/purchase/profile';
import { PurchaseSession } from '../../device-worker/pdd/purchase/purchase-session';
import { isPurchaseStop } from '../../device-worker/pdd/purchase/stop';
import { observeAfterTap, orderContext, readPendingOrderList, submitFinalPanel, SubmitRefused } from '../../device-worker/pdd/purchase/submit';
import { StepLog } from '../../device-worker/step-log';
import { nowUtc } from '../../domain/time';
import type { DeviceContext } from './context';
import { onPhone, type PhoneRun } from './phone-activity';
import type { ActivityCounters, DevicePurchaseActivities, FinalPanelReading, PurchaseTarget } from './purchase-contract';

export interface PurchaseDeps {
  /** the `submissions` table of this phone's ledger.db */
  submissions: SubmissionLedger;
  /** null: the worker runs without an admin (screenshots stay unuploaded) */
  evidence: EvidenceUploader | null;
}

const LAST_DUMP_KEY = 'last_dump_sha1';

function toActivityCounters(c: DeviceCounters): ActivityCounters {
  return { adbRoundTrips: c.adb_round_trips, dumps: c.dumps, taps: c.taps, wallMs: c.wall_ms };
}

/**
 * The phone side of a purchase (purchase-contract.ts). Every call runs inside `onPhone`, so the
 * caller must own the open claim; every input goes through one TapGuard, which consults the
 * submission ledger before each one — after `irreversible_action_at` only reads pass.
 */
export function createPurchaseActivities(ctx: DeviceContext, deps: PurchaseDeps): DevicePurchaseActivities {
  const open = (run: PhoneRun, target: PurchaseTarget, steps: StepLog) => {
    const profile = profileForVersion(run.appVersion);
    const pp = purchaseProfileFor(profile);
    const guard = new TapGuard({
      authorizationId: target.authorizationId,
      irreversible: (a) => deps.submissions.irreversible(a),
      pkg: profile.pkg,
      submitLabel: pp.text.submitLabel,
      readOnlyUrl: pp.pendingOrdersUrl,
    });
    const session = new PurchaseSession(guard.wrap(ctx.adb), profile, run.clock, steps, ctx.timing, {
      get: () => ctx.ledger.getState(LAST_DUMP_KEY),
      set: (h) => ctx.ledger.setState(LAST_DUMP_KEY, h),
    });
    session.setPurchaseProfile(pp);
    return { session, pp, guard };
  };

  const evidenceTaker = (target: PurchaseTarget, ids: string[]) => async (kind: EvidenceKind) => {
    if (!deps.evidence) return;
    try {
      const png = await ctx.adb.screencap();
      const id = await deps.evidence.upload(png, { taskId: target.taskId, attemptId: target.attemptId, kind, capturedAt: nowUtc() });
      if (id) ids.push(id);
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message, kind, taskId: target.taskId }, 'evidence screenshot failed; the purchase goes on');
    }
  };

  const workflowId = () => Context.current().info.workflowExecution?.workflowId ?? '';

  return {
    async preparePurchase(input) {
      const { target } = input;
      return onPhone(ctx, 'preparePurchase', input, async (run) => {
        const steps = new StepLog();
        const reading: Partial<FinalPanelReading> = { appVersion: run.appVersion ?? '' };
        const evidenceIds: string[] = [];
        let session: PurchaseSession | null = null;
        try {
          if (deps.submissions.irreversible(target.authorizationId)) {
            throw new DeviceError('SUBMIT_REFUSED', `authorization ${target.authorizationId} is past irreversible_action_at; prepare would tap`);
          }
          const opened = open(run, target, steps);
          session = opened.session;
          const full = await prepareFinalPanel(opened.session, opened.pp, target, reading, { evidence: evidenceTaker(target, evidenceIds) });
          return { ok: true as const, reading: full, evidenceIds, counters: toActivityCounters(run.clock.snapshot()) };
        } catch (err) {
          const stop = isPurchaseStop(err)
            ? { reason: err.reason, detail: err.message }
            : isDeviceError(err) && err.code === 'APP_VERSION_UNSUPPORTED'
              ? { reason: 'APP_VERSION_UNSUPPORTED' as const, detail: err.message }
              : err instanceof TapRefused
                ? { reason: 'PAGE_UNRECOGNIZED' as const, detail: err.message }
                : null;
          if (!stop) throw err;
          const artifactPath = await saveStop(ctx, workflowId(), steps, session, stop);
          ctx.log.warn({ taskId: target.taskId, reason: stop.reason, detail: stop.detail, artifactPath }, 'purchase stopped before the fence');
          return { ok: false as const, ...stop, reading, evidenceIds, artifactPath, counters: toActivityCounters(run.clock.snapshot()) };
        }
      });
    },

    async submitOnce(input) {
      return onPhone(ctx, 'submitOnce', input, async (run) => {
        const steps = new StepLog();
        try {
          const { session, pp, guard } = open(run, input.target, steps);
          const done = await submitFinalPanel(session, pp, guard, deps.submissions, { target: input.target, submissionId: input.submissionId, expected: input.expected, workflowId: workflowId() });
          ctx.log.info({ taskId: input.target.taskId, authorizationId: input.target.authorizationId, ...done }, 'submitted once');
          return { tappedAt: done.tappedAt, counters: toActivityCounters(run.clock.snapshot()) };
        } catch (err) {
          if (err instanceof SubmitRefused || err instanceof SubmissionRefused) throw new DeviceError('SUBMIT_REFUSED', err.message);
          if (err instanceof TapRefused) throw new DeviceError('TAP_REFUSED', err.message);
          throw err;
        }
      });
    },

    async observeAfterSubmit(input) {
      return onPhone(ctx, 'observeAfterSubmit', input, async (run) => {
        const steps = new StepLog();
        const evidenceIds: string[] = [];
        const { session, pp } = open(run, input.target, steps);
        const row = deps.submissions.get(input.target.authorizationId);
        const expected = row ? (JSON.parse(row.expected_json) as FinalPanelReading) : null;
        const seen = await observeAfterTap(session, pp, { target: input.target, expected, tappedAt: row?.tapped_at ?? null }, evidenceTaker(input.target, evidenceIds));
        return { ...seen, evidenceIds, counters: toActivityCounters(run.clock.snapshot()) };
      });
    },

    async readPendingOrders(input) {
      return onPhone(ctx, 'readPendingOrders', input, async (run) => {
        const steps = new StepLog();
        const { session, pp } = open(run, input.target, steps);
        const row = deps.submissions.get(input.target.authorizationId);
        const expected = row ? (JSON.parse(row.expected_json) as FinalPanelReading) : null;
        const orders = await readPendingOrderList(session, pp, orderContext(input.target, expected));
        return { orders, counters: toActivityCounters(run.clock.snapshot()) };
      });
    },
  };
}

async function saveStop(ctx: DeviceContext, workflowId: string, steps: StepLog, session: PurchaseSession | null, stop: { reason: string; detail: string }): Promise<string | null> {
  let screenshot: Buffer | null = null;
  try {
    screenshot = await ctx.adb.screencap();
  } catch {
    // the stop is what matters; the picture is a courtesy
  }
  try {
    return ctx.artifacts.save(workflowId, `preparePurchase-${stop.reason}`, { screenshot, xml: session?.lastXml() ?? null, steps, error: { code: stop.reason, message: stop.detail } });
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message }, 'could not save stop artifacts');
    return null;
  }
}
