import { SYB_LIMITS, taipeiDay, type SybSyncCounts, type SybSyncStatus } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import type { AdminDb } from '../db/database';
import { ApiError } from '../../domain/api-error';
import { readSetting } from '../settings/settings';
import type { SybService } from './account';
import { SybError } from './client';
import { matchLinesLeftOpen } from './store';
import { SyncRun, type SyncBudget } from './sync-run';
import { parseRetries, retryJson, setState } from './sync-state';
import { recordSybSync } from '../metrics/metrics';

/** How far back the very first sync looks, in days. */
const FIRST_SYNC_DAYS = 30;

/** `last_error` of a sync that stored what it could and still moved the cursor (domain/api-errors.ts). */
const PARTIAL = { code: 'SYB_PARTIAL' } as const;
/** `last_error` of a sync that stopped at one of its budgets: what it stored is kept, the cursor stays. */
const BUDGET = { code: 'SYB_SYNC_BUDGET' } as const;

/** How the caller (the activity) watches and stops a sync. */
export interface SyncControl {
  /** progress after every page and shipment */
  heartbeat?: (progress: { pages: number; lines: number }) => void;
  /** aborted: the call in flight is abandoned and the sync ends with SYB_SYNC_CANCELLED */
  signal?: AbortSignal;
}

/** The operator's budgets of one sync (设置: 顺运宝每次同步…). */
async function syncBudget(db: AdminDb): Promise<SyncBudget & { bytes: number }> {
  return {
    lines: await readSetting(db, 'syb.sync_max_lines'),
    pages: await readSetting(db, 'syb.sync_max_pages'),
    bytes: (await readSetting(db, 'syb.sync_max_mb')) * 1024 * 1024,
  };
}

/**
 * One sync (docs/syb-protocol.md): from the Taipei day of `last_synced_at` to today, every page
 * until SYB lists nothing new, every shipment's detail, and the shipments an earlier sync could
 * not read — within the sync's budgets of lines, bytes and pages (domain/settings.ts). Each line
 * is upserted — a line the adapter cannot use as well, with its `data_problem`, so no line can
 * stop intake. A shipment whose detail call fails is named in `last_error` and in `retry_json`
 * and fetched again next time, without holding back the rest: `last_synced_at` still moves to
 * this sync's start. It stays where it was when a list page fails, a budget is spent (the sync
 * then ends normally with SYB_SYNC_BUDGET, what it stored kept), many detail calls fail (an
 * outage), or the sync is stopped (`control.signal`).
 */
export async function syncSybOrders(syb: SybService, control: SyncControl = {}): Promise<SybSyncCounts> {
  const heartbeat = control.heartbeat ?? (() => {});
  return syb.exclusive(async () => {
    const db = syb.db;
    const account = await syb.account();
    if (!account) {
      await setState(db, {
        last_error: 'SYB_NOT_CONFIGURED: set the SYB address, user name and password on 设置 → 顺运宝',
      });
      throw new SybError('SYB_NOT_CONFIGURED', 'no SYB account: set the SYB address, user name and password first');
    }
    let budget: SyncBudget & { bytes: number };
    try {
      budget = await syncBudget(db);
    } catch (err) {
      // a budget edited by hand past its range: no sync until it is saved again on 设置
      if (err instanceof ApiError) await setState(db, { last_error: `${err.code}: ${err.message}` });
      throw err;
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
    client.limitSync({ bytes: budget.bytes, signal: control.signal });
    const run = new SyncRun(syb, client, { startedAt, fromDay, toDay }, budget, heartbeat);
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
    const code = run.budgetHit ? BUDGET.code : PARTIAL.code;
    await setState(db, {
      running: 0,
      finished_at: nowUtc(),
      // not all was read: the next sync starts from the same day again
      ...(run.budgetHit ? {} : { last_synced_at: startedAt }),
      last_error: problems.length > 0 ? `${code}: ${problems.join(' | ')}`.slice(0, 2000) : null,
      // the earlier retries it did not reach are kept for the next sync
      retry_json: run.budgetHit
        ? retryJson(run.failed, state.retry_json)
        : JSON.stringify(run.failed.slice(0, SYB_LIMITS.retryShipments)),
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
 * Syncs run only in the process that runs the admin queue's worker (the admin worker, or the
 * admin with its worker inside); a fresh one runs none yet, so it clears at start a `running`
 * flag that a killed one left behind. The admin without its worker leaves the flag alone: a
 * sync may be running beside it.
 */
export async function clearStaleSyncFlag(db: AdminDb): Promise<void> {
  await db
    .updateTable('syb_sync_state')
    .set({ running: 0, updated_at: nowUtc() })
    .where('id', '=', 1)
    .where('running', '=', 1)
    .execute();
}
