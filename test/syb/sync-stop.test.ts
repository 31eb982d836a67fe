import { ActivityFailure, ApplicationFailure, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { sybSyncStatus } from '../../admin/syb/sync';
import { setState } from '../../admin/syb/sync-state';
import { SYB_SYNC_SCHEDULE_ID } from '../../domain/syb';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import type { sybSync } from '../../workflows/syb-sync';
import { startTestAdmin, type TestAdmin } from '../harness';
import { startSim } from './helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sync as Temporal runs it (workflows/syb-sync.ts), against a hostile 顺运宝 that floods:
 * a list that never ends, every page new shipments. Terminating the workflow used to leave its
 * activity running — reading and writing until its own limits. The activity now heartbeats every
 * second (one sent per 8 s), learns of a cancel or a termination from a heartbeat's answer, and
 * abandons its call in flight: the upstream sees no call and admin.db gets no row a few seconds
 * later. An answer too costly to parse ends the run at once, not after three fetches of it.
 */
describe('SYB sync on Temporal: stopped when told, not retried in a loop', () => {
  let admin: TestAdmin;
  let sim: Awaited<ReturnType<typeof startSim>>;
  const earlier = '2026-12-01T00:00:00Z';

  beforeAll(async () => {
    sim = await startSim([]);
    admin = await startTestAdmin({ syb: { url: sim.url, ...(await sim.control.credentials()) } });
    // only the syncs this test starts: the Schedule's own runs would call the upstream too
    await admin.sybScheduleReady;
    const client = await admin.temporal.client();
    const schedule = client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID);
    await schedule.pause('test: syncs started by hand');
    // the first sync, which an admin with an account runs at start, ends before the test's own
    for (let i = 0; i < 150 && (await schedule.describe()).info.runningActions.length > 0; i++) await sleep(200);
  });
  afterAll(async () => {
    await admin?.close();
    await sim?.close();
  });

  const upstreamCalls = async () => (await sim.control.requests()).length;
  const rows = async () =>
    Number(
      (
        await admin.db
          .selectFrom('syb_orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const startFlood = async (workflowId: string): Promise<WorkflowHandle<typeof sybSync>> => {
    await sim.control.clearRequests();
    // ~20 shipments of 10 lines a second: far from the 20,000-line budget within this test
    await sim.control.faults({ flood_lines: 10, page_size: 50, latency_ms: 40 });
    await setState(admin.db, { last_synced_at: earlier });
    const client = await admin.temporal.client();
    const handle = await client.workflow.start<typeof sybSync>('sybSync', {
      workflowId,
      taskQueue: ADMIN_TASK_QUEUE,
      args: [],
    });
    // flooding: this sync's lines are coming in
    const before = await rows();
    const until = Date.now() + 60_000;
    while ((await rows()) < before + 100 && Date.now() < until) await sleep(200);
    expect(await rows()).toBeGreaterThanOrEqual(before + 100);
    return handle;
  };

  /** Seconds from `since` until the upstream saw its last call, once it has seen none for 5 s. */
  const secondsUntilQuiet = async (since: number): Promise<{ lastCallAfterS: number; rowsAfter: number }> => {
    let calls = await upstreamCalls();
    let lastChange = Date.now();
    while (Date.now() - lastChange < 5_000 && Date.now() - since < 60_000) {
      await sleep(250);
      const now = await upstreamCalls();
      if (now !== calls) {
        calls = now;
        lastChange = Date.now();
      }
    }
    return { lastCallAfterS: (lastChange - since) / 1000, rowsAfter: await rows() };
  };

  const expectStopped = async (stoppedAt: number, label: string) => {
    const rowsAtStop = await rows();
    const { lastCallAfterS, rowsAfter } = await secondsUntilQuiet(stoppedAt);
    // one heartbeat interval (8 s) and the call in flight, with room for a loaded machine
    expect(lastCallAfterS).toBeLessThan(15);
    // and still nothing, 5 s later: no call, no row
    const calls = await upstreamCalls();
    await sleep(5_000);
    expect(await upstreamCalls()).toBe(calls);
    expect(await rows()).toBe(rowsAfter);
    const status = await sybSyncStatus(admin.db);
    expect(status.running).toBe(false);
    expect(status.last_error).toMatch(/^SYB_SYNC_CANCELLED: /);
    // not all was read: the cursor stays
    expect(status.last_synced_at).toBe(earlier);
    console.log(
      `${label}: the upstream's last call came ${lastCallAfterS.toFixed(1)} s after; ${rowsAfter - rowsAtStop} rows after, ${rowsAfter} in all`,
    );
  };

  it('cancelled: the running activity stops within seconds', async () => {
    const handle = await startFlood('syb-stop-cancel');
    await handle.cancel();
    const cancelledAt = Date.now();
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    await expectStopped(cancelledAt, 'cancel');
  }, 180_000);

  it('terminated: the activity learns it from its next heartbeat and stops within seconds', async () => {
    const handle = await startFlood('syb-stop-terminate');
    await handle.terminate('test: a hostile upstream');
    const terminatedAt = Date.now();
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    await expectStopped(terminatedAt, 'terminate');
  }, 180_000);

  it('a list answer too costly to parse fails the run once, not retried: the Schedule runs it next', async () => {
    await sim.control.clearRequests();
    await sim.control.faults({ costly_list: true });
    const client = await admin.temporal.client();
    const handle = await client.workflow.start<typeof sybSync>('sybSync', {
      workflowId: 'syb-costly-list',
      taskQueue: ADMIN_TASK_QUEUE,
      args: [],
    });
    const failure = await handle.result().then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const activity = (failure as WorkflowFailedError).cause;
    expect(activity).toBeInstanceOf(ActivityFailure);
    const cause = (activity as ActivityFailure).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause).toMatchObject({ type: 'SYB_ANSWER_TOO_COSTLY', nonRetryable: true });
    // one attempt: the 31 MB answer was fetched once
    const lists = (await sim.control.requests()).filter((r) => r.path === '/am/stock/list');
    expect(lists).toHaveLength(1);
    expect((await sybSyncStatus(admin.db)).last_error).toMatch(/^SYB_ANSWER_TOO_COSTLY: /);
  }, 120_000);
});
