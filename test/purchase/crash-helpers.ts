import type { PurchaseRig } from './setup';

/** Every state a purchase may rest in with a safe next step for the operator. */
export const SETTLED = ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'NEEDS_MANUAL', 'SUCCEEDED', 'FAILED'];

/** the admin's order_submissions rows of the task's authorization */
export async function submissionRows(rig: PurchaseRig, taskId: string) {
  const auth = await rig.admin.db
    .selectFrom('tasks')
    .select('authorization_id')
    .where('task_id', '=', taskId)
    .executeTakeFirstOrThrow();
  const byAuth = auth.authorization_id
    ? await rig.admin.db
        .selectFrom('order_submissions')
        .selectAll()
        .where('authorization_id', '=', auth.authorization_id)
        .execute()
    : [];
  const byTask = await rig.admin.db.selectFrom('order_submissions').selectAll().where('task_id', '=', taskId).execute();
  // one authorization per task in these tests: both views must agree
  expect(byAuth.length === byTask.length || auth.authorization_id === null).toBe(true);
  return byTask;
}

/** The purchase's invariants for one task (one authorization per task in these tests). */
export async function expectInvariants(rig: PurchaseRig, taskId: string): Promise<void> {
  expect(rig.orders().length).toBeLessThanOrEqual(1);
  expect(rig.submitTaps().length).toBeLessThanOrEqual(1);
  expect(rig.paymentTaps()).toHaveLength(0);
  const rows = await submissionRows(rig, taskId);
  expect(rows.length).toBeLessThanOrEqual(1);
  const ledger = rig.submissionRows().filter((r) => r.task_id === taskId);
  expect(ledger.length).toBeLessThanOrEqual(1);
  // a tap needs the fence row before it and the ledger's irreversible_action_at before it
  if (rig.submitTaps().length > 0) {
    expect(rows).toHaveLength(1);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]?.submission_id).toBe(rows[0]?.id);
    // after irreversible_action_at only reads: the one submit tap is the last tap on the phone
    expect(rig.taps().at(-1)).toBe(rig.submitTaps()[0]);
  }
  // the task is never left in ORDERING (or CLAIMED) without a way forward
  expect(SETTLED).toContain((await rig.task(taskId)).status);
}

export async function poll(check: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
