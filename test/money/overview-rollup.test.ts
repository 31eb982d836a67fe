import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openMigratedAdminDb, type AdminDb } from '../../admin/db/database';
import type { Overview } from '../../domain/money-views';
import { moneyOverview } from '../../admin/money/overview';
import type { DayRange } from '../../admin/money/range';
import { comparable, directOverview } from '../../bench/money-direct';
import { seedDraft, seedLine, seedPurchase, seedSubmission, setStatus } from './seed';

/**
 * The overview reads daily figures kept by triggers (migrations/0160_money.ts). Whatever order
 * the purchases move in, those figures must be what the rows themselves say: the same figures
 * worked out straight from the lines, tasks, submissions and attempts (bench/money-direct.ts,
 * plain GROUP BYs and domain/margin.ts) — plus the events the rows no longer show, which the
 * overview keeps on the day they happened (a stop since reset, a stop a person later settled).
 */
const D1 = '2026-11-20';
const D2 = '2026-11-21';
const D3 = '2026-11-22';
/** hh:mm Taipei on a Taipei day, as the stored UTC */
const at = (day: string, hhmm: string) =>
  new Date(Date.parse(`${day}T${hhmm}:00+08:00`)).toISOString().slice(0, 19) + 'Z';
const PHONE_A = 'aaaaaaaa-0000-4000-8000-000000000001';
const PHONE_B = 'bbbbbbbb-0000-4000-8000-000000000002';

describe('money overview rollup', () => {
  let dir: string;
  let file: string;
  let db: AdminDb;

  const setting = (key: string, value: number) =>
    db
      .insertInto('app_settings')
      .values({ setting_key: key, value_json: JSON.stringify(value), updated_at: at(D1, '00:00') })
      .onConflict((oc) => oc.column('setting_key').doUpdateSet({ value_json: JSON.stringify(value) }))
      .execute();
  const endAttempt = (taskId: string, finishedAt: string) =>
    db.updateTable('purchase_attempts').set({ finished_at: finishedAt }).where('task_id', '=', taskId).execute();
  const direct = (range: DayRange) => {
    const bare = new Database(file, { readonly: true });
    try {
      return directOverview(bare, range);
    } finally {
      bare.close();
    }
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'money-rollup-'));
    file = path.join(dir, 'admin.db');
    db = await openMigratedAdminDb(file);
    await db
      .insertInto('device_credentials')
      .values({
        device_id: PHONE_A,
        display_name: '一号机',
        token_sha256: crypto.randomBytes(32),
        status: 'ACTIVE',
        created_at: at(D1, '00:00'),
      } as never)
      .execute();
    await setting('money.twd_to_cny_rate_ppm', 225_000);
    await setting('money.platform_fee_bp', 600);
    await setting('money.line_fee_cny_cent', 300);

    for (const [id, sale, q, day, hhmm] of [
      ['L1', 123_45, 2, D1, '09:00'],
      ['L2', 99_999, 1, D1, '23:50'],
      ['L3', 50_000, 1, D1, '10:00'],
      ['L4', 70_000, 3, D1, '11:00'],
      ['L5', 20_000, 1, D2, '00:10'],
      ['L6', null, 1, D2, '08:00'],
      ['L7', 88_888, 1, D3, '12:00'],
      ['L8', 10_000, 1, D3, '23:59'],
    ] as const)
      await seedLine(db, { sybId: id, createdAt: at(day, hhmm), saleTwdCent: sale, quantity: q });

    // 待付款 on D1, paid on a later day (D2)
    await seedPurchase(db, {
      taskId: 'P1',
      sybId: 'L1',
      capCent: 9_000,
      deviceId: PHONE_A,
      amountCent: 5_432,
      at: at(D1, '09:30'),
      waitingAt: at(D1, '09:40'),
      paidAt: at(D2, '10:00'),
    });
    await endAttempt('P1', at(D1, '09:41'));
    // 待付款 at 23:55 Taipei, paid five minutes after midnight: two Taipei days, one UTC day
    await seedPurchase(db, {
      taskId: 'P2',
      sybId: 'L2',
      capCent: 30_000,
      deviceId: PHONE_B,
      amountCent: 18_001,
      at: at(D1, '23:51'),
      waitingAt: at(D1, '23:55'),
      paidAt: at(D2, '00:05'),
    });
    await endAttempt('P2', at(D2, '00:01'));

    // stopped before the fence on D1, reset to a draft on D2, bought on D3 and still waiting
    await seedDraft(db, { taskId: 'P3', sybId: 'L3', capCent: 20_000, at: at(D1, '10:05') });
    await setStatus(db, 'P3', 'PENDING', at(D1, '10:06'));
    await setStatus(db, 'P3', 'ORDERING', at(D1, '10:07'), { device_id: PHONE_A });
    await setStatus(db, 'P3', 'NEEDS_MANUAL', at(D1, '10:08'), { reason_code: 'PRICE_CHANGED' });
    await setStatus(db, 'P3', 'DRAFT', at(D2, '09:00'));
    await setStatus(db, 'P3', 'PENDING', at(D3, '09:00'));
    await seedSubmission(db, {
      taskId: 'P3',
      amountCent: 11_000,
      deviceId: PHONE_A,
      at: at(D3, '09:01'),
      tappedAt: at(D3, '09:02'),
    });
    await setStatus(db, 'P3', 'ORDERING', at(D3, '09:02'));
    // the rate changes before P3 reaches 待付款: P1 and P2 keep theirs
    await setting('money.twd_to_cny_rate_ppm', 230_000);
    await setStatus(db, 'P3', 'WAITING_PAYMENT', at(D3, '09:03'), { pdd_order_no: 'PDD-P3' });
    await endAttempt('P3', at(D3, '09:05'));

    // a stop on D1 a person settles as failed on D2: counted once, on D1
    await seedDraft(db, { taskId: 'P4', sybId: 'L4', capCent: 20_000, at: at(D1, '11:05') });
    await setStatus(db, 'P4', 'PENDING', at(D1, '11:06'));
    await setStatus(db, 'P4', 'NEEDS_MANUAL', at(D1, '11:08'), { reason_code: 'GATE1_OVER_CAP' });
    await setStatus(db, 'P4', 'FAILED', at(D2, '12:00'));

    // a dry run passed on D2, one stopped on D3 (a dry run and a stop both)
    await seedDraft(db, { taskId: 'P5', sybId: null, capCent: 5_000, mode: 'dry_run', at: at(D2, '00:15') });
    await setStatus(db, 'P5', 'PENDING', at(D2, '00:16'));
    await setStatus(db, 'P5', 'DRY_RUN_PASSED', at(D2, '00:20'));
    await seedDraft(db, { taskId: 'P5b', sybId: null, capCent: 5_000, mode: 'dry_run', at: at(D3, '00:15') });
    await setStatus(db, 'P5b', 'PENDING', at(D3, '00:16'));
    await setStatus(db, 'P5b', 'NEEDS_MANUAL', at(D3, '00:20'), { reason_code: 'OPTION_UNAVAILABLE' });

    // a line without a price: counted, no margin; and a purchase that failed outright
    await seedPurchase(db, {
      taskId: 'P6',
      sybId: 'L6',
      capCent: 9_000,
      deviceId: PHONE_B,
      amountCent: 700,
      at: at(D2, '08:10'),
      waitingAt: at(D2, '08:20'),
    });
    await seedDraft(db, { taskId: 'P7', sybId: 'L7', capCent: 9_000, at: at(D3, '12:05') });
    await setStatus(db, 'P7', 'PENDING', at(D3, '12:06'));
    await setStatus(db, 'P7', 'FAILED', at(D3, '12:07'));
  });
  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** the rows' figures plus the stops the rows no longer show where they happened */
  const expected = (range: DayRange): Overview => {
    const want = direct(range);
    const move = (from: string | null, to: string | null, reason: string) => {
      for (const d of want.days) {
        if (d.date === from && (d.stops[reason] = (d.stops[reason] ?? 0) - 1) === 0) delete d.stops[reason];
        if (d.date === to) d.stops[reason] = (d.stops[reason] ?? 0) + 1;
      }
    };
    move(null, D1, 'PRICE_CHANGED'); // P3, reset since
    move(D2, D1, 'GATE1_OVER_CAP'); // P4, settled as failed on D2
    return want;
  };

  it.each([
    ['three days', { from: D1, to: D3 }],
    ['the middle day alone', { from: D2, to: D2 }],
    ['a range beyond the data', { from: '2026-11-01', to: '2026-12-31' }],
  ])('equals the rows, %s', async (_name, range) => {
    expect(comparable(await moneyOverview(db, range))).toEqual(comparable(expected(range)));
  });

  it('counts each event once, on the Taipei day it happened', async () => {
    const { days, phones } = await moneyOverview(db, { from: D1, to: D3 });
    const [d1, d2, d3] = days;
    expect(d1).toMatchObject({
      lines_in: 4,
      live_purchases: 2,
      waiting_payment_count: 2,
      waiting_payment_cny_cent: 5_432 + 18_001,
      paid_count: 0,
    });
    expect(d1!.stops).toEqual({ PRICE_CHANGED: 1, GATE1_OVER_CAP: 1 });
    expect(d2).toMatchObject({
      lines_in: 2,
      paid_count: 2,
      paid_cny_cent: 5_432 + 18_001,
      dry_runs: 1,
      waiting_payment_count: 1,
      waiting_payment_cny_cent: 700,
    });
    expect(d2!.stops).toEqual({});
    expect(d2!.margin_cny_cent).toBeNull(); // P6's line has no price
    expect(d3).toMatchObject({ lines_in: 2, live_purchases: 1, waiting_payment_count: 1, dry_runs: 1 });
    expect(d3!.stops).toEqual({ OPTION_UNAVAILABLE: 1, FAILED: 1 });
    // P3 reached 待付款 after the rate changed: priced at 0.23, P1 and P2 at 0.225
    const sale = Math.round((50_000 * 230_000) / 1e6);
    expect(d3!.margin_cny_cent).toBe(sale - (Math.round((sale * 600) / 10_000) + 300) - 11_000);
    expect(phones.find((p) => p.device_id === PHONE_A)).toMatchObject({
      display_name: '一号机',
      waiting_payment_count: 1,
      waiting_payment_cny_cent: 11_000,
      purchases: 2,
    });
    expect(phones.find((p) => p.device_id === PHONE_B)).toMatchObject({
      display_name: PHONE_B,
      waiting_payment_count: 1,
      purchases: 2,
    });
  });
});
