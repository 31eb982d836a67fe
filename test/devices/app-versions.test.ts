import type { AppVersionView } from '../../domain/devices';
import { startPurchaseRig, BLACK_M, type PurchaseRig } from '../purchase/setup';

jest.setTimeout(300_000);

/**
 * The release gate per PDD app version (docs/api.md §12.2): on a fresh admin the
 * phone's version is seen but not released, so a live purchase stops at the fence with nothing
 * tapped; a dry run that reaches the final panel makes it releasable, and once released a live
 * purchase goes through.
 */
describe('release gate per PDD app version', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig({ releaseAppVersion: false });
  });
  afterAll(async () => {
    await rig?.close();
  });

  const versions = async () => {
    const res = await rig.op.get('/api/app-versions');
    expect(res.status).toBe(200);
    return res.body as AppVersionView[];
  };
  const releaseAudit = () =>
    rig.admin.db.selectFrom('audit_log').selectAll().where('action', '=', 'app_version.release').execute();
  async function until<T>(read: () => Promise<T>, check: (v: T) => boolean, what: string): Promise<T> {
    let last: T | undefined;
    for (let i = 0; i < 600; i++) {
      last = await read();
      if (check(last)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`never saw ${what}; last: ${JSON.stringify(last)}`);
  }

  it('lists the registered version unreleased, with its profile and no dry run', async () => {
    const list = await until(versions, (v) => v.length > 0, 'the phone registered');
    expect(list).toEqual([
      {
        app_version: '8.17.0',
        profile: true,
        last_dry_run_passed_at: null,
        last_dry_run_task_id: null,
        released: false,
        released_at: null,
      },
    ]);
  });

  it('refuses a release without a dry run (409) and of an unknown version (404), writing nothing', async () => {
    const early = await rig.op.post('/api/app-versions/8.17.0/release');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: { code: 'NO_DRY_RUN_ON_VERSION' } });
    const unknown = await rig.op.post('/api/app-versions/9.9.9/release');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 'UNKNOWN_APP_VERSION' } });
    expect(await releaseAudit()).toEqual([]);
    expect((await versions())[0]).toMatchObject({ released: false, released_at: null });
  });

  it('live on an unreleased version stops at the fence: APP_VERSION_NOT_RELEASED, NEEDS_MANUAL, 提交订单 never tapped', async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'live' });
    const t = await rig.waitFor(id, ['NEEDS_MANUAL', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED']);
    expect(t).toMatchObject({ status: 'NEEDS_MANUAL', reason_code: 'APP_VERSION_NOT_RELEASED' });
    expect(rig.submitTaps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
    expect(rig.submissionRows()).toHaveLength(0);
    expect(await rig.admin.db.selectFrom('order_submissions').selectAll().where('task_id', '=', id).execute()).toEqual(
      [],
    );
  });

  it('a dry run to the final panel makes the version releasable; once released (audited) a live purchase taps once', async () => {
    const dry = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    expect((await rig.waitFor(dry, ['DRY_RUN_PASSED', 'NEEDS_MANUAL'])).status).toBe('DRY_RUN_PASSED');
    const [v] = await versions();
    expect(v).toMatchObject({ app_version: '8.17.0', released: false });
    expect(v!.last_dry_run_passed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const released = await rig.op.post('/api/app-versions/8.17.0/release');
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ app_version: '8.17.0', released: true });
    const audit = await releaseAudit();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_kind: 'operator', actor: 'admin', target_id: '8.17.0' });

    const live = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'live' });
    expect((await rig.waitFor(live, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED'])).status).toBe(
      'WAITING_PAYMENT',
    );
    expect(rig.submitTaps()).toHaveLength(1);
    expect(rig.orders()).toHaveLength(1);
  });

  it('a version the worker has no page profile for is listed without one', async () => {
    await rig.stopWorker();
    rig.sim.phone(rig.serial).setFaults({ app_version: '8.18.0' });
    try {
      await rig.startWorker();
      const list = await until(versions, (l) => l.some((x) => x.app_version === '8.18.0'), '8.18.0 registered');
      expect(list.find((x) => x.app_version === '8.18.0')).toEqual({
        app_version: '8.18.0',
        profile: false,
        last_dry_run_passed_at: null,
        last_dry_run_task_id: null,
        released: false,
        released_at: null,
      });
    } finally {
      rig.sim.phone(rig.serial).clearFaults();
    }
  });
});
