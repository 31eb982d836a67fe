import { SearchAttributeType } from '@temporalio/common';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporalDataConverter } from '../../temporal/codec';
import { SEARCH_ATTRIBUTE_NAMES } from '../../temporal/search-attributes';
import { OPERATOR_WAIT_DAYS_DEFAULT } from '../../domain/purchase/workflow-types';
import { fakePurchaseRig, keep } from './fake-purchase';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Nothing open-ended, on the time-skipping test server (days pass in no time): a release to a
 * phone host that is gone ends at its deadline, an admin outage while a phone is held ends the
 * step and lets the phone go, and a purchase parked for its operator closes after the operator
 * wait, leaving the task to the admin's repair.
 */
describe('purchase workflow: every wait ends', () => {
  let env: TestWorkflowEnvironment;
  const { rig, setUp, tearDown, reset, start } = fakePurchaseRig('waits');
  beforeAll(async () => {
    const path = process.env.CMAUTOBUY_TEST_TIME_SKIPPING_SERVER;
    if (!path) throw new Error('globalSetup did not provide the time-skipping server');
    // the workers encrypt payloads like every production worker: the test client reads them the same way
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path } },
      client: { dataConverter: temporalDataConverter() },
    });
    // the purchase upserts its search attributes: the test server knows none until told
    const keyword = encodeSearchAttributeIndexedValueType(SearchAttributeType.KEYWORD)!;
    await env.connection.operatorService.addSearchAttributes({
      namespace: 'default',
      searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((n) => [n, keyword])),
    });
    await setUp({ nativeConnection: env.nativeConnection, client: env.client, namespace: 'default' });
  });
  afterAll(async () => {
    await tearDown();
    await env?.teardown();
  });
  beforeEach(reset);

  const workflowDays = async (handle: Awaited<ReturnType<typeof start>>) => {
    const d = await handle.describe();
    return ((d.closeTime?.getTime() ?? 0) - d.startTime.getTime()) / DAY_MS;
  };

  it('a release to a phone host that is gone is given up at its deadline and the workflow closes', async () => {
    rig.script.releaseFails = true;
    const handle = await start({ mode: 'dry_run' });
    expect(await handle.result()).toBe('DRY_RUN_PASSED');
    expect(rig.calls.activities.filter((a) => a === 'releaseDevice').length).toBeGreaterThan(1);
    await keep('purchase-release-given-up', handle);
  });

  it('an admin outage while the phone is held ends the step in NEEDS_MANUAL and lets the phone go; unanswered, the workflow closes after the operator wait', async () => {
    rig.script.flaky = 'recordAttemptProgress';
    const handle = await start();
    expect(await handle.result()).toBe('NEEDS_MANUAL');
    expect(rig.calls.statuses).toEqual(['CLAIMED', 'ORDERING', 'NEEDS_MANUAL']);
    expect(rig.calls.activities).toContain('releaseDevice');
    expect(rig.calls.activities).not.toContain('createSubmissionFence');
    expect(await workflowDays(handle)).toBeGreaterThanOrEqual(OPERATOR_WAIT_DAYS_DEFAULT);
    await keep('purchase-admin-outage-before-fence', handle);
  });

  it('an admin outage after the fence: 待核对, the phone let go, nothing tapped twice', async () => {
    rig.script.flaky = 'savePurchaseResult';
    const handle = await start({ operatorWaitDays: 2 });
    expect(await handle.result()).toBe('RECONCILIATION_REQUIRED');
    expect(rig.calls.activities.filter((a) => a === 'submitOnce')).toHaveLength(1);
    expect(rig.calls.activities).toContain('releaseDevice');
    expect(rig.calls.statuses.at(-1)).toBe('RECONCILIATION_REQUIRED');
    const days = await workflowDays(handle);
    expect(days).toBeGreaterThanOrEqual(2);
    expect(days).toBeLessThan(OPERATOR_WAIT_DAYS_DEFAULT);
    await keep('purchase-admin-outage-after-fence', handle);
  });

  it('待付款 nobody marks paid closes after the operator wait in 待付款, for the admin to repair', async () => {
    const handle = await start();
    expect(await handle.result()).toBe('WAITING_PAYMENT');
    expect(rig.calls.statuses.at(-1)).toBe('WAITING_PAYMENT');
    expect(await workflowDays(handle)).toBeGreaterThanOrEqual(OPERATOR_WAIT_DAYS_DEFAULT);
    await keep('purchase-operator-wait-ended', handle);
  });
});
