import type { WorkflowHandle } from '@temporalio/client';
import { fakePurchaseRig, keep, pendingOrder, stateOf, until } from './fake-purchase';

/**
 * The purchase's own patches (docs/versioning.md): the release gate's refusal named as the task
 * row names it, the reconcile window centred on the ledger's irreversible_action_at, the writes
 * that only record progress while a phone is held as one local activity, and a dry run that lets its
 * phone go at the final panel. Each is kept as a history; the histories of the branches from
 * before them are in test/histories/retired/.
 */

const MIN = 60_000;
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
const RELEASE_GATE = {
  clickPermitted: false as const,
  reason: 'APP_VERSION_NOT_RELEASED',
  detail: 'PDD 8.17.0 is not released for live purchases',
};

/** The activity types the workflow scheduled, in order, from its history. */
async function scheduled(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const name = e.activityTaskScheduledEventAttributes?.activityType?.name;
    return name ? [name] : [];
  });
}

/** The activity types the workflow ran as local activities, from their markers in its history. */
async function localActivities(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') return [];
    const data = marker.details?.data?.payloads?.[0]?.data;
    if (!data) return [];
    // the SDK's own marker data (plain JSON, never through the codec): its field names follow its proto
    const fields = JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string; activityType?: string };
    const type = fields.activity_type ?? fields.activityType;
    return type ? [type] : [];
  });
}

describe('purchase workflow: held-phone patches, new branches', () => {
  const { rig, setUp, tearDown, reset, start } = fakePurchaseRig('held');
  beforeAll(() => setUp());
  afterAll(tearDown);
  beforeEach(reset);

  it('the release gate refuses the fence: the workflow state says APP_VERSION_NOT_RELEASED, as the task row does, and nothing is tapped', async () => {
    rig.script.fence = RELEASE_GATE;
    const handle = await start();
    const state = await stateOf(handle, 'NEEDS_MANUAL');
    expect(state.reasonCode).toBe('APP_VERSION_NOT_RELEASED');
    await until(() => rig.calls.statuses.includes('NEEDS_MANUAL'));
    expect(rig.calls.reasons[rig.calls.statuses.indexOf('NEEDS_MANUAL')]).toBe('APP_VERSION_NOT_RELEASED');
    expect(rig.calls.activities).not.toContain('submitOnce');
    await keep('purchase-fence-release-gate', handle);
  });

  it('tap time unknown: the ±5 min window is centred on the ledger time — the order placed near it matches, one placed "now" does not', async () => {
    const tapped = Date.now() - 20 * MIN;
    rig.script.submitFails = 'the phone went away after irreversible_action_at';
    rig.script.irreversibleActionAt = utc(tapped);
    // an order placed now lies within ±5 min of the workflow's "now", 20 min after the tap: not ours
    rig.script.pending = [{ ...pendingOrder('PO-NOW'), placedAt: utc(Date.now()) }];
    const notOurs = await start();
    expect((await stateOf(notOurs, 'RECONCILIATION_REQUIRED')).reasonCode).toBe('SUBMIT_NOT_CONFIRMED');
    await until(() => rig.calls.activities.includes('releaseDevice'));
    expect(rig.calls.statuses).not.toContain('WAITING_PAYMENT');
    await notOurs.terminate('test done');

    reset();
    rig.script.submitFails = 'the phone went away after irreversible_action_at';
    rig.script.irreversibleActionAt = utc(tapped);
    rig.script.pending = [{ ...pendingOrder('PO-LEDGER'), placedAt: utc(tapped + MIN) }];
    const ours = await start();
    expect(await stateOf(ours, 'WAITING_PAYMENT')).toMatchObject({ orderNo: 'PO-LEDGER' });
    // the row's write follows the workflow's own state: let it land before the next test counts writes
    await until(() => rig.calls.statuses.includes('WAITING_PAYMENT'));
    await keep('purchase-reconcile-window-ledger', ours);
  });

  it('while the phone is held, the attempt, CLAIMED and ORDERING are one local admin activity, run in the workflow task that took the claim', async () => {
    const handle = await start();
    await stateOf(handle, 'WAITING_PAYMENT');
    await until(() => rig.calls.statuses.includes('WAITING_PAYMENT'));
    const types = await scheduled(handle);
    expect(types.slice(0, types.indexOf('preparePurchase'))).toEqual(['claimDevice']);
    expect(await localActivities(handle)).toContain('beginOrdering');
    expect(rig.calls.activities.indexOf('beginOrdering')).toBeLessThan(rig.calls.activities.indexOf('preparePurchase'));
    expect(rig.calls.statuses.slice(0, 3)).toEqual(['CLAIMED', 'ORDERING', 'WAITING_PAYMENT']);
    await keep('purchase-held-progress-local', handle);
  });

  it('a dry run lets its phone go at the final panel, before the admin books it', async () => {
    const handle = await start({ mode: 'dry_run' });
    expect(await handle.result()).toBe('DRY_RUN_PASSED');
    const types = await scheduled(handle);
    const panel = types.indexOf('preparePurchase');
    expect(types.slice(panel + 1, panel + 3)).toEqual(['releaseDevice', 'recordAttemptProgress']);
    await keep('purchase-dry-run-released-at-panel', handle);
  });
});
