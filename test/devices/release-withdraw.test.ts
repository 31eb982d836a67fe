import type { AppVersionView } from '../../domain/devices';
import type { DraftWarning } from '../../domain/purchase/views';
import { startPurchaseRig, BLACK_M, type PurchaseRig } from '../purchase/setup';

jest.setTimeout(300_000);

/**
 * The release gate up front (docs/api.md §12.2): a release can be withdrawn (audited), after
 * which live submits on the version are refused at the fence again; and before that, every live
 * task no phone could submit today says so — on the task, on 复制为真实下单, in the start answer
 * and on the task list — naming the versions and the phones.
 */
describe('withdrawing a release, and the release gate before a live purchase', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  const version = async (): Promise<AppVersionView | undefined> => {
    const res = await rig.op.get('/api/app-versions');
    expect(res.status).toBe(200);
    return (res.body as AppVersionView[]).find((v) => v.app_version === '8.17.0');
  };
  const audits = (action: string) =>
    rig.admin.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();
  const gateOf = (warnings: readonly DraftWarning[]) => warnings.find((w) => w.code === 'APP_VERSION_NOT_RELEASED');
  let dryRun = '';

  it('a released version: a live draft carries no release warning; a dry run names what a release rests on', async () => {
    dryRun = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    expect((await rig.waitFor(dryRun, ['DRY_RUN_PASSED', 'NEEDS_MANUAL'])).status).toBe('DRY_RUN_PASSED');
    expect(await version()).toMatchObject({ released: true, last_dry_run_task_id: dryRun });
    const live = await rig.draft({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'live' });
    expect(gateOf((await rig.task(live.task_id)).warnings)).toBeUndefined();
    const list = await rig.op.get('/api/tasks');
    expect(list.body).toMatchObject({ live_warnings: [] });
  });

  it('DELETE …/release withdraws it (200, released false, audited app_version.withdraw); again changes nothing', async () => {
    const res = await rig.op.del('/api/app-versions/8.17.0/release');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ app_version: '8.17.0', released: false, released_at: null });
    const [audit, ...more] = await audits('app_version.withdraw');
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ actor_kind: 'operator', actor: 'admin', target_id: '8.17.0' });
    const again = await rig.op.del('/api/app-versions/8.17.0/release');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ released: false });
    expect(await audits('app_version.withdraw')).toHaveLength(1);
    const unknown = await rig.op.del('/api/app-versions/9.9.9/release');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 'UNKNOWN_APP_VERSION' } });
  });

  it('then every live task says so: 复制为真实下单, the task, the list, the start answer; the fence refuses again', async () => {
    const copy = await rig.op.post(`/api/tasks/${dryRun}/copy-live`, {});
    expect(copy.status).toBe(201);
    const body = copy.body as { task_id: string; version: number; warnings: DraftWarning[] };
    const gate = gateOf(body.warnings);
    expect(gate?.message).toContain('8.17.0');
    expect(gate?.message).toContain('purchase phone');

    const view = await rig.task(body.task_id);
    expect(gateOf(view.warnings)).toEqual(gate);
    const list = await rig.op.get('/api/tasks');
    expect((list.body as { live_warnings: DraftWarning[] }).live_warnings).toEqual([gate]);
    // a dry run needs no released version
    const dry = await rig.draft({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    expect(gateOf((await rig.task(dry.task_id)).warnings)).toBeUndefined();

    const started = await rig.op.post('/api/tasks/start', {
      tasks: [{ task_id: body.task_id, version: body.version }],
    });
    expect(started.status).toBe(200);
    const [item] = (started.body as { tasks: Array<{ task_id: string; warnings: DraftWarning[] }> }).tasks;
    expect(gateOf(item!.warnings)).toEqual(gate);

    const stopped = await rig.waitFor(body.task_id, ['NEEDS_MANUAL', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED']);
    expect(stopped).toMatchObject({ status: 'NEEDS_MANUAL', reason_code: 'APP_VERSION_NOT_RELEASED' });
    expect(rig.submitTaps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
  });

  it('released again on the same dry run, the warning is gone', async () => {
    const res = await rig.op.post('/api/app-versions/8.17.0/release');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ released: true, last_dry_run_task_id: dryRun });
    const list = await rig.op.get('/api/tasks');
    expect(list.body).toMatchObject({ live_warnings: [] });
  });
});
