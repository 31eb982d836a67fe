import fs from 'node:fs';
import path from 'node:path';
import { backupAdminDb, restoreAdminDb } from '../../admin/backup/backup';
import type { UiConfig } from '../../domain/ui-config';
import { dataPaths } from '../../platform/data-dir';
import { tempDataDir } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';

/**
 * A backup taken before two purchases ran, restored into the stopped admin: on start the admin
 * catches the tasks up with their workflows (admin/purchase/catch-up.ts) — the one a draft in the
 * backup, the other created after it — without a tap on the phone or a second order, and tells
 * the operator what the restore lost.
 */
describe('a restored admin database catches up with Temporal on start', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  const submissions = () =>
    rig.admin.db
      .selectFrom('order_submissions')
      .select(['id', 'task_id', 'authorization_id', 'status', 'pdd_order_no', 'order_submitted_at'])
      .orderBy('task_id')
      .execute();
  const audits = (action: string) =>
    rig.admin.db.selectFrom('audit_log').select(['target_id', 'details_json']).where('action', '=', action).execute();

  it('brings back a draft that ran and recreates a task started after the backup; no tap, no order', async () => {
    // distinct quantities: each purchase's order check finds its own unpaid order
    const drafted = await rig.draft({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const adminDb = dataPaths(rig.admin.dataDir).adminDb;
    const file = path.join(tempDataDir('backups'), 'before-purchases.db');
    await backupAdminDb(adminDb, file);

    const started = await rig.op.post('/api/tasks/start', {
      tasks: [{ task_id: drafted.task_id, version: drafted.version }],
    });
    expect(started.status).toBe(200);
    const first = await rig.waitFor(drafted.task_id, ['WAITING_PAYMENT']);
    const laterId = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
    const later = await rig.waitFor(laterId, ['WAITING_PAYMENT']);
    const lostDraft = await rig.draft({ ...BLACK_M, quantity: 3, maxTotalPriceCent: 6000 });
    const subsBefore = await submissions();
    expect(subsBefore).toHaveLength(2);
    const orders = rig.orders().map((o) => o.order_no);
    expect(orders).toHaveLength(2);
    expect([first.pdd_order_no, later.pdd_order_no].sort()).toEqual([...orders].sort());
    const taps = rig.taps().length;

    await rig.stopAdmin();
    await restoreAdminDb(file, adminDb);
    await rig.startAdmin();

    const a = await rig.task(drafted.task_id);
    expect(a).toMatchObject({ status: 'WAITING_PAYMENT', pdd_order_no: first.pdd_order_no });
    const b = await rig.task(laterId);
    expect(b).toMatchObject({ status: 'WAITING_PAYMENT', pdd_order_no: later.pdd_order_no });
    expect(await submissions()).toEqual(subsBefore);
    const caught = await audits('task.catch_up');
    expect(caught.map((r) => r.target_id).sort()).toEqual([drafted.task_id, laterId].sort());
    expect(JSON.parse(caught.find((r) => r.target_id === laterId)!.details_json!)).toMatchObject({ recreated: true });
    // the draft made after the backup is gone; the admin names it once
    const lost = await audits('restore.lost_drafts');
    expect(lost).toHaveLength(1);
    expect(JSON.parse(lost[0]!.details_json!).tasks).toEqual([
      expect.objectContaining({ task_id: lostDraft.task_id, status: 'DRAFT' }),
    ]);
    // and the 任务 page tells the operator (GET /api/config)
    const notice = async () => {
      const res = await rig.op.get('/api/config');
      expect(res.status).toBe(200);
      return (res.body as UiConfig).restore_notice;
    };
    expect(await notice()).toMatchObject({
      caught_up: 1,
      recreated: 1,
      lost_drafts: [expect.objectContaining({ task_id: lostDraft.task_id })],
      unmatched_workflows: 0,
    });

    // the phone was only read from: one order per authorization, no tap since the restore
    await new Promise((r) => setTimeout(r, 2_000));
    expect(rig.orders().map((o) => o.order_no)).toEqual(orders);
    expect(rig.taps()).toHaveLength(taps);

    // a second start finds everything in line: nothing written again
    await rig.stopAdmin();
    await rig.startAdmin();
    expect(await audits('task.catch_up')).toHaveLength(2);
    expect(await audits('restore.lost_drafts')).toHaveLength(1);

    // the caught-up task is the workflow's again: 标记已付款 goes through it
    const paid = await rig.op.post(`/api/tasks/${laterId}/mark-paid`);
    expect(paid.status).toBe(200);
    await rig.waitFor(laterId, ['SUCCEEDED']);

    // restored again, its replaced database deleted: the drafts cannot be named, the count is said
    await rig.stopAdmin();
    await restoreAdminDb(file, adminDb);
    const dir = path.dirname(adminDb);
    for (const f of fs.readdirSync(dir).filter((n) => n.includes('.before-restore-'))) fs.rmSync(path.join(dir, f));
    await rig.startAdmin();
    expect(await rig.task(laterId)).toMatchObject({ status: 'SUCCEEDED' });
    expect(await notice()).toMatchObject({ caught_up: 1, recreated: 1, lost_drafts: null, unmatched_workflows: 0 });
  });
});
