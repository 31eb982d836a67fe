import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import type { AdbDevice } from '../../device-worker/adb/adb-device';
import { CounterClock } from '../../device-worker/counters';
import { DeviceError, isDeviceError } from '../../device-worker/errors';
import { profileForVersion, withTaughtOverlays, type PddProfile } from '../../device-worker/pdd/profile';
import { PddSession, type DumpMemory } from '../../device-worker/pdd/session';
import { StepLog } from '../../device-worker/step-log';
import type { DeviceActivityInput, FinalPanelReading } from '../../domain/contracts/device-activities';
import { PDD_PACKAGE } from '../../domain/pdd-app';
import type { DeviceContext } from './context';
import { toFailure } from './failure';

const LAST_DUMP_KEY = 'last_dump_sha1';

export interface PhoneRun {
  /** null when the PDD app is not installed */
  appVersion: string | null;
  clock: CounterClock;
  /** this activity's step log; a failure's artifacts keep it */
  steps: StepLog;
  /** the profile of this app version with its reviewed taught popups, refused (APP_VERSION_UNSUPPORTED) before any tap */
  profile(): PddProfile;
  /** a session on that profile */
  openSession(): { session: PddSession; profile: PddProfile };
  /** a session on another view of the phone (the purchase's guarded one), tracked for the artifacts */
  track<S extends PddSession>(open: (phone: AdbDevice, memory: DumpMemory) => S): S;
  /** a purchase's readings so far: a failure carries them to the workflow */
  keepReading(reading: Partial<FinalPanelReading>): void;
}

/**
 * The frame of every activity that touches the phone: the caller must own the open claim;
 * the app version must have a profile before anything is tapped; every ADB round trip,
 * dump and tap is counted; a failure leaves a screenshot, the XML and the step log behind and
 * leaves as one ApplicationFailure whose type is the device failure code.
 */
export async function onPhone<T>(
  ctx: DeviceContext,
  name: string,
  input: DeviceActivityInput,
  fn: (run: PhoneRun) => Promise<T>,
): Promise<T> {
  const info = Context.current().info;
  const workflowId = info.workflowExecution?.workflowId ?? '';
  const clock = new CounterClock();
  const steps = new StepLog();
  let session: PddSession | null = null;
  let reading: Partial<FinalPanelReading> | null = null;
  const memory: DumpMemory = {
    get: () => ctx.ledger.getState(LAST_DUMP_KEY),
    set: (h) => ctx.ledger.setState(LAST_DUMP_KEY, h),
  };
  try {
    if (input.claim?.device_id !== ctx.deviceId)
      throw new DeviceError(
        'DEVICE_NOT_CLAIMED',
        `the claim is for device ${input.claim?.device_id}, this is ${ctx.deviceId}`,
      );
    ctx.ledger.requireOwner(input.claim.claim_id, workflowId);
    ctx.adb.observe(() => clock.roundTrip());
    steps.add(name, { workflow_id: workflowId, attempt: info.attempt });
    await ctx.adb.ensureOnline();
    const appVersion = await ctx.adb.versionName(PDD_PACKAGE);
    const taught = appVersion && ctx.taughtOverlays ? await ctx.taughtOverlays(appVersion) : [];
    const profile = () => withTaughtOverlays(profileForVersion(appVersion), taught);
    const run: PhoneRun = {
      appVersion,
      profile,
      clock,
      steps,
      openSession: () => {
        const p = profile();
        session = new PddSession(ctx.adb, p, clock, steps, ctx.timing, memory);
        return { session, profile: p };
      },
      track: (open) => {
        const s = open(ctx.adb, memory);
        session = s;
        return s;
      },
      keepReading: (r) => void (reading = r),
    };
    const result = await fn(run);
    ctx.log.info({ activity: name, workflowId, counters: clock.snapshot() }, 'device activity done');
    return result;
  } catch (err) {
    // a cancel stopped the activity at a safe point: it leaves as a cancel, not as a phone fault
    if (err instanceof CancelledFailure) {
      ctx.log.info({ activity: name, workflowId, err: err.message }, 'device activity cancelled');
      throw err;
    }
    const counters = clock.snapshot();
    const artifactPath = await saveArtifacts(ctx, workflowId, name, err, session, steps);
    ctx.log.warn(
      {
        activity: name,
        workflowId,
        code: isDeviceError(err) ? err.code : null,
        err: (err as Error).message,
        counters,
        artifactPath,
      },
      'device activity failed',
    );
    throw toFailure(err, artifactPath, counters, reading);
  }
}

async function saveArtifacts(
  ctx: DeviceContext,
  workflowId: string,
  name: string,
  err: unknown,
  session: PddSession | null,
  steps: StepLog,
): Promise<string | null> {
  if (isDeviceError(err) && (err.code === 'DEVICE_NOT_CLAIMED' || err.code === 'INVALID_INPUT')) return null;
  let screenshot: Buffer | null = null;
  try {
    screenshot = await ctx.adb.screencap();
  } catch {
    // the phone may be gone (that may be the failure): keep the rest
  }
  try {
    const code = isDeviceError(err) ? err.code : 'ADB_FAILED';
    return ctx.artifacts.save(workflowId, `${name}-${code}`, {
      screenshot,
      xml: session?.lastXml() ?? null,
      steps,
      error: { code, message: (err as Error)?.message ?? String(err) },
    });
  } catch (e) {
    ctx.log.warn({ err: (e as Error).message }, 'could not save failure artifacts');
    return null;
  }
}
