import { SYB_LIMITS, taipeiDay, type SybSyncCounts, type SybSyncStatus } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import type { AdminDb } from '../db/database';
import type { SybService } from './account';
import { SybError } from './client';
import { matchLinesLeftOpen } from './store';
import { SyncRun } from './sync-run';
import { parseRetries, retryJson, setState } from './sync-state';
import { recordSybSync } from '../metrics/metrics';

/** How far back the very first sync looks, in days. */
const FIRST_SYNC_DAYS = 30;

/** `last_error` of a sync that stored what it could and still moved the cursor (domain/api-errors.ts). */
const PARTIAL = { code: 'SYB_PARTIAL' } as const;

/**
 * One sync (docs/syb-protocol.md): from the Taipei day of `last_synced_at` to today, every page
 * until SYB lists nothing new (at most `SYB_LIMITS.pagesPerSync`), every shipment's detail, and
 * the shipments an earlier sync could not read. Each line is upserted — a line the adapter cannot
 * use as well, with its `data_problem`, so no line can stop intake. A shipment whose detail call
 * fails is named in `last_error` and in `retry_json` and fetched again next time, without holding
 * back the rest: `last_synced_at` still moves to this sync's start. It stays where it was when a
 * list page fails, the page limit is reached, or many detail calls fail (an outage).
 */
export async function syncSybOrders(
  syb: SybService,
  heartbeat: (progress: { pages: number; lines: number }) => void = () => {},
): Promise<SybSyncCounts> {
  return syb.exclusive(async () => {
    const db = syb.db;
    const account = await syb.account();
    if (!account) {
      await setState(db, {
        last_error: 'SYB_NOT_CONFIGURED: set the SYB address, user name and password on 设置 → 顺运宝',
      });
      throw new SybError('SYB_NOT_CONFIGURED', 'no SYB account: set the SYB address, user name and password first');
    }
    const startedAt = nowUtc();
    const state = await db
      .selectFrom('syb_sync_state')
      .select(['last_synced_at', 'retry_json'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const fromDay = taipeiDay(
      state.last_synced_at ? new Date(state.last_synced_at) : new Date(Date.now() - FIRST_SYNC_DAYS * 86400_000),
    );
    const toDay = taipeiDay(new Date());
    await setState(db, { running: 1, started_at: startedAt, finished_at: null, progress_pages: 0, progress_lines: 0 });

    const client = syb.client(account);
    const run = new SyncRun(syb, client, { startedAt, fromDay, toDay }, heartbeat);
    try {
      await run.walkPages();
      await run.readAgain(parseRetries(state.retry_json));
      await matchLinesLeftOpen(db);
    } catch (err) {
      const message =
        err instanceof SybError ? `${err.code}: ${err.message}` : `SYNC_FAILED: ${(err as Error).message}`;
      await setState(db, {
        running: 0,
        finished_at: nowUtc(),
        last_error: message,
        retry_json: retryJson(run.failed, state.retry_json),
      });
      recordSybSync({ lines: run.counts.lines, ok: false });
      throw err;
    } finally {
      await client.close();
    }
    const problems = run.problems();
    await setState(db, {
      running: 0,
      finished_at: nowUtc(),
      ...(run.pageLimitHit ? {} : { last_synced_at: startedAt }),
      last_error: problems.length > 0 ? `${PARTIAL.code}: ${problems.join(' | ')}`.slice(0, 2000) : null,
      retry_json: JSON.stringify(run.failed.slice(0, SYB_LIMITS.retryShipments)),
    });
    recordSybSync({ lines: run.counts.lines, ok: problems.length === 0 });
    return run.counts;
  });
}

export async function sybSyncStatus(db: AdminDb): Promise<SybSyncStatus> {
  const s = await db.selectFrom('syb_sync_state').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  return {
    running: s.running === 1,
    last_synced_at: s.last_synced_at,
    last_error: s.last_error,
    progress: { pages: s.progress_pages, lines: s.progress_lines },
  };
}

/**
 * Syncs run only inside the admin process; a fresh process runs none, so a `running` flag
 * left behind by a killed admin is cleared at start.
 */
export async function clearStaleSyncFlag(db: AdminDb): Promise<void> {
  await db
    .updateTable('syb_sync_state')
    .set({ running: 0, updated_at: nowUtc() })
    .where('id', '=', 1)
    .where('running', '=', 1)
    .execute();
}
