import { ApplicationFailure } from '@temporalio/common';
import { purchaseActivities } from '../../activities/admin/purchase';
import { revokeDeviceCredential } from '../../admin/auth/device-credentials';
import { registerDevice } from '../../admin/auth/device-registry';
import { issueTestDevice } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from './setup';

/**
 * The admin side of the purchase on the real admin DB: every activity the workflow retries
 * without a maximum is idempotent, and a revoked device gets neither an attempt nor a fence.
 * No device worker runs, so the workflows started here wait for a phone and never interfere.
 */
describe('purchase admin activities', () => {
  let rig: PurchaseRig;
  let acts: ReturnType<typeof purchaseActivities>;
  beforeAll(async () => {
    rig = await startPurchaseRig({ withWorker: false });
    acts = purchaseActivities(rig.admin.db);
  });
  afterAll(async () => {
    await rig?.close();
  });

  const started = async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.task(id);
    return { taskId: id, authorizationId: t.authorization!.id, workflowId: t.workflow_id! };
  };

  it('the write back to DRAFT, retried after it committed, changes nothing and does not fail', async () => {
    const { taskId, authorizationId } = await started();
    await acts.recordPurchaseStatus({ taskId, authorizationId, to: 'DRAFT', reasonCode: 'AUTHORIZATION_EXPIRED' });
    const once = await rig.admin.db
      .selectFrom('tasks')
      .select(['status', 'version'])
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    await expect(
      acts.recordPurchaseStatus({ taskId, authorizationId, to: 'DRAFT', reasonCode: 'AUTHORIZATION_EXPIRED' }),
    ).resolves.toBeUndefined();
    expect(
      await rig.admin.db
        .selectFrom('tasks')
        .select(['status', 'version'])
        .where('task_id', '=', taskId)
        .executeTakeFirstOrThrow(),
    ).toEqual(once);
    // another status for an authorization the task no longer has is still refused
    await expect(acts.recordPurchaseStatus({ taskId, authorizationId, to: 'CLAIMED' })).rejects.toMatchObject({
      type: 'STALE_AUTHORIZATION',
    });
  });

  it('beginPurchaseAttempt twice is one attempt; a revoked device gets none (DEVICE_REVOKED, not retryable)', async () => {
    const s = await started();
    const phone = await issueTestDevice(rig.admin, 'attempt phone');
    const a = await acts.beginPurchaseAttempt({ ...s, deviceId: phone.deviceId });
    expect(await acts.beginPurchaseAttempt({ ...s, deviceId: phone.deviceId })).toEqual(a);

    const other = await started();
    const revoked = await issueTestDevice(rig.admin, 'revoked phone');
    await revokeDeviceCredential(rig.admin.db, { kind: 'system', name: 'test' }, revoked.deviceId);
    const err = await acts.beginPurchaseAttempt({ ...other, deviceId: revoked.deviceId }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'DEVICE_REVOKED', nonRetryable: true });
    expect(
      await rig.admin.db
        .selectFrom('purchase_attempts')
        .select('id')
        .where('authorization_id', '=', other.authorizationId)
        .execute(),
    ).toHaveLength(0);
  });

  it('a task the same phone claims again records the new claim time, in its one task_claims row', async () => {
    const first = await started();
    const phone = await issueTestDevice(rig.admin, 'reclaim phone');
    await acts.beginPurchaseAttempt({ ...first, deviceId: phone.deviceId });
    await acts.recordPurchaseStatus({ ...first, to: 'CLAIMED', deviceId: phone.deviceId });
    // the first claim, long ago; then the authorization expires and the task is started again
    await rig.admin.db
      .updateTable('task_claims')
      .set({ claimed_at: '2020-01-01T00:00:00Z' })
      .where('task_id', '=', first.taskId)
      .execute();
    await acts.recordPurchaseStatus({ ...first, to: 'DRAFT', reasonCode: 'AUTHORIZATION_EXPIRED' });
    const draft = await rig.task(first.taskId);
    const res = await rig.op.post('/api/tasks/start', { tasks: [{ task_id: first.taskId, version: draft.version }] });
    expect(res.status).toBe(200);
    const again = await rig.task(first.taskId);
    const second = { taskId: first.taskId, authorizationId: again.authorization!.id, workflowId: again.workflow_id! };
    expect(second.authorizationId).not.toBe(first.authorizationId);
    const { attemptId } = await acts.beginPurchaseAttempt({ ...second, deviceId: phone.deviceId });

    const attempt = await rig.admin.db
      .selectFrom('purchase_attempts')
      .select('started_at')
      .where('id', '=', attemptId)
      .executeTakeFirstOrThrow();
    expect(
      await rig.admin.db.selectFrom('task_claims').selectAll().where('task_id', '=', first.taskId).execute(),
    ).toEqual([{ task_id: first.taskId, device_id: phone.deviceId, claimed_at: attempt.started_at }]);
  });

  it('beginOrdering is the attempt, CLAIMED and ORDERING in one: retried after any part, it ends the same; a revoked device moves nothing', async () => {
    const s = await started();
    const phone = await issueTestDevice(rig.admin, 'ordering phone');
    const row = () =>
      rig.admin.db
        .selectFrom('purchase_attempts')
        .select(['id', 'timeline_json'])
        .where('authorization_id', '=', s.authorizationId)
        .executeTakeFirstOrThrow();
    const status = async () =>
      (
        await rig.admin.db
          .selectFrom('tasks')
          .select('status')
          .where('task_id', '=', s.taskId)
          .executeTakeFirstOrThrow()
      ).status;
    const begun = await acts.beginOrdering({ ...s, deviceId: phone.deviceId });
    expect(await status()).toBe('ORDERING');
    const timeline = (JSON.parse((await row()).timeline_json) as { status: string }[]).map((e) => e.status);
    expect(timeline).toEqual(['CLAIMED', 'ORDERING']);
    // a retry after a lost answer: the same attempt, no new timeline entries, no illegal move
    expect(await acts.beginOrdering({ ...s, deviceId: phone.deviceId })).toEqual(begun);
    expect((await row()).id).toBe(begun.attemptId);
    expect((JSON.parse((await row()).timeline_json) as unknown[]).length).toBe(2);

    const other = await started();
    const revoked = await issueTestDevice(rig.admin, 'revoked ordering phone');
    await revokeDeviceCredential(rig.admin.db, { kind: 'system', name: 'test' }, revoked.deviceId);
    await expect(acts.beginOrdering({ ...other, deviceId: revoked.deviceId })).rejects.toMatchObject({
      type: 'DEVICE_REVOKED',
    });
    expect(
      (
        await rig.admin.db
          .selectFrom('tasks')
          .select('status')
          .where('task_id', '=', other.taskId)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('PENDING');
  });

  it('the fence refuses a device revoked after its attempt began: DEVICE_REVOKED, no submission row', async () => {
    const s = await started();
    const phone = await issueTestDevice(rig.admin, 'fence phone');
    const { attemptId } = await acts.beginPurchaseAttempt({ ...s, deviceId: phone.deviceId });
    await acts.recordPurchaseStatus({ ...s, to: 'CLAIMED', deviceId: phone.deviceId });
    await acts.recordPurchaseStatus({ ...s, to: 'ORDERING' });
    await revokeDeviceCredential(rig.admin.db, { kind: 'system', name: 'test' }, phone.deviceId);
    const confirmation = {
      options: BLACK_M.options,
      quantityRead: 1,
      gate1UnitPriceCent: 1288,
      gate1RawPrice: '¥12.88',
      gate2PanelTotalCent: 1288,
      gate3SubmitAmountCent: 1288,
      title: null,
      shopName: null,
      appVersion: '8.17.0',
    };
    const decision = await acts.createSubmissionFence({
      taskId: s.taskId,
      authorizationId: s.authorizationId,
      attemptId,
      confirmation,
    });
    expect(decision).toMatchObject({ clickPermitted: false, reason: 'DEVICE_REVOKED' });
    expect(
      await rig.admin.db
        .selectFrom('order_submissions')
        .select('id')
        .where('authorization_id', '=', s.authorizationId)
        .execute(),
    ).toHaveLength(0);
  });

  it('a dry run is credited to the version read on its final panel, not the one its phone registered with', async () => {
    const credited = (v: string) =>
      rig.admin.db
        .selectFrom('app_versions')
        .select('last_dry_run_task_id')
        .where('app_version', '=', v)
        .executeTakeFirst();
    const phone = await issueTestDevice(rig.admin, 'updated phone');
    await registerDevice(rig.admin.db, phone.deviceId, {
      serial: 'upd-1',
      model: 'sim',
      app_version: '7.0.0',
      capabilities: [],
    });
    const s = await started();
    const { attemptId } = await acts.beginPurchaseAttempt({ ...s, deviceId: phone.deviceId });
    await acts.recordAttemptProgress({ attemptId, step: 'dry_run_passed', status: 'PASSED', appVersion: '7.1.0' });
    expect(await credited('7.1.0')).toEqual({ last_dry_run_task_id: s.taskId });
    expect(await credited('7.0.0')).toEqual({ last_dry_run_task_id: null });

    // a workflow from before reports no version: the registered one, as it always was
    const old = await started();
    const before = await acts.beginPurchaseAttempt({ ...old, deviceId: phone.deviceId });
    await acts.recordAttemptProgress({ attemptId: before.attemptId, step: 'dry_run_passed', status: 'PASSED' });
    expect(await credited('7.0.0')).toEqual({ last_dry_run_task_id: old.taskId });
    expect(await credited('7.1.0')).toEqual({ last_dry_run_task_id: s.taskId });
  });
});
