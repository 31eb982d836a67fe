import type { WorkflowHandle } from '@temporalio/client';
import { workflowsVariant } from '../histories/variant';
import { markPaidUpdate } from '../../workflows/purchase/messages';
import { fakePurchaseRig, keep, stateOf } from './fake-purchase';

/**
 * Old branches recorded so that they ask for other commands than the new code would: run on the
 * code from before a patch (the patch taken out the old way, test/histories/variant.ts) and kept
 * as histories, they are what test/histories/replay.test.ts shows the new code alone cannot replay
 * — the proof that the patch's old branch is needed (docs/versioning.md).
 */

/** Returns once the workflow has no task and no activity pending, three polls in a row. */
async function idle(handle: WorkflowHandle): Promise<void> {
  for (let quiet = 0; quiet < 3;) {
    const d = await handle.describe();
    quiet = !d.raw.pendingWorkflowTask && (d.raw.pendingActivities ?? []).length === 0 ? quiet + 1 : 0;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the code from before operator-wait-ends', () => {
  let bundlePath = '';
  const { rig, setUp, tearDown, start } = fakePurchaseRig('old-wait', { bundlePath: () => bundlePath });
  beforeAll(async () => {
    bundlePath = (await workflowsVariant("patched('operator-wait-ends')", 'false')).codePath;
    await setUp();
  });
  afterAll(tearDown);

  // parked in 待付款 over a workflow task of its own: the new code would have started the wait's timer there
  it('waited for 标记已付款 without a timer', async () => {
    const handle = await start();
    await stateOf(handle, 'WAITING_PAYMENT');
    await idle(handle);
    const history = await handle.fetchHistory();
    expect((history.events ?? []).filter((e) => e.timerStartedEventAttributes)).toEqual([]);
    await handle.executeUpdate(markPaidUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('SUCCEEDED');
    expect(rig.calls.statuses).toContain('SUCCEEDED');
    await keep('purchase-operator-wait-old-branch', handle);
  });
});

describe('the code from before device-name-attribute', () => {
  let bundlePath = '';
  const { rig, setUp, tearDown, start } = fakePurchaseRig('old-device-name', { bundlePath: () => bundlePath });
  beforeAll(async () => {
    bundlePath = (await workflowsVariant("patched('device-name-attribute')", 'false')).codePath;
    await setUp();
  });
  afterAll(tearDown);

  // the claim answered with the phone's name, which the old code did not write as DeviceName
  it('set no DeviceName beside DeviceId', async () => {
    const handle = await start();
    await stateOf(handle, 'WAITING_PAYMENT');
    await idle(handle);
    expect((await handle.describe()).searchAttributes).not.toHaveProperty('DeviceName');
    expect(rig.calls.activities).toContain('beginOrdering');
    await handle.executeUpdate(markPaidUpdate, { args: [{ actor: 'op' }] });
    expect(await handle.result()).toBe('SUCCEEDED');
    await keep('purchase-device-name-old-branch', handle);
  });
});
