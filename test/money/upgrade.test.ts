import { Migrator } from 'kysely';
import { openAdminDb } from '../../admin/db/database';
import { moneyOverview } from '../../admin/money/overview';
import { migrationProvider } from '../../migrations';
import { tempDataDir } from '../harness';
import { seedLine, seedPurchase } from './seed';

/**
 * Migration 0160 on a database with history: what existed before is frozen and counted (on the
 * day of its last change), so 概览 and 待付款 are right from the first start after the upgrade.
 */
describe('migration 0160 counts what was there before it', () => {
  it('a purchase waiting for payment and one paid before the upgrade are in the overview after it', async () => {
    const db = openAdminDb(`${tempDataDir('migration')}/admin.db`);
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0154_taught_overlays')).error).toBeUndefined();
      await seedLine(db, { sybId: 'U1', createdAt: '2026-11-01T02:00:00Z', saleTwdCent: 10_000, quantity: 1 });
      await seedLine(db, { sybId: 'U2', createdAt: '2026-11-01T03:00:00Z', saleTwdCent: 20_000, quantity: 1 });
      const common = { capCent: 9_000, deviceId: 'phone-u', at: '2026-11-01T04:00:00Z' };
      await seedPurchase(db, {
        ...common,
        taskId: 'u1',
        sybId: 'U1',
        amountCent: 1_500,
        waitingAt: '2026-11-01T05:00:00Z',
      });
      await seedPurchase(db, {
        ...common,
        taskId: 'u2',
        sybId: 'U2',
        amountCent: 2_500,
        waitingAt: '2026-11-01T05:00:00Z',
        paidAt: '2026-11-02T05:00:00Z',
      });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const overview = await moneyOverview(db, { from: '2026-11-01', to: '2026-11-02' });
      expect(overview.days[0]).toMatchObject({ lines_in: 2, live_purchases: 2, waiting_payment_count: 1 });
      expect(overview.days[1]).toMatchObject({ paid_count: 1, paid_cny_cent: 2_500 });
      expect(overview.phones).toEqual([
        expect.objectContaining({
          device_id: 'phone-u',
          waiting_payment_count: 1,
          waiting_payment_cny_cent: 1_500,
          purchases: 2,
        }),
      ]);
      const frozen = await db
        .selectFrom('tasks')
        .select(['task_id', 'confirmed_total_cent', 'paid_at'])
        .orderBy('task_id')
        .execute();
      expect(frozen).toEqual([
        { task_id: 'u1', confirmed_total_cent: 1_500, paid_at: null },
        { task_id: 'u2', confirmed_total_cent: 2_500, paid_at: '2026-11-02T05:00:00Z' },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
