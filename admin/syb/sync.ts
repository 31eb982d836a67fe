import { SYB_LIMITS, taipeiDay, type SybSyncCounts, type SybSyncStatus } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import type { AdminDb } from '../db/database';
import type { SybService } from './account';
import { SybError } from './client';
import { matchLinesLeftOpen, upsertLines } from './store';
import { recordSybSync } from '../metrics/metrics';

/** How far back the very first sync looks, in days. */
const FIRST_SYNC_DAYS = 30;
/** Lines per write transaction: the admin answers other requests between two of them (kept small: each is synchronous SQLite work). */
const WRITE_BATCH = 20;
/** Detail calls that may fail in one sync before it counts as an outage (cursor kept). */
const MAX_FAILED_SHIPMENTS = 20;

interface FailedShipment {
  id: string;
  error: string;
}

/** `last_error` of a sync that stored what it could and still moved the cursor (domain/api-errors.ts). */
const PARTIAL = { code: 'SYB_PARTIAL' } as const;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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

    const counts: SybSyncCounts = { pages: 0, lines: 0, new_lines: 0, from_day: fromDay, to_day: toDay };
    const failed: FailedShipment[] = [];
    const truncated: string[] = [];
    const seen = new Set<string>();
    const client = syb.client(account);
    let pageLimitHit = false;
    const readOne = async (shipmentId: string): Promise<void> => {
      seen.add(shipmentId);
      let read;
      try {
        read = await client.shipmentLines(shipmentId, startedAt);
      } catch (err) {
        if (!(err instanceof SybError) || !perShipment(err)) throw err;
        failed.push({ id: shipmentId, error: `${err.code}: ${err.message}`.slice(0, 300) });
        syb.log.warn(
          { shipment_id: shipmentId, code: err.code, err: err.message },
          'SYB shipment not read; retried by the next sync',
        );
        if (failed.length > MAX_FAILED_SHIPMENTS) throw err;
        return;
      }
      for (const refusal of read.refusals.slice(0, 50))
        syb.log.warn({ shipment_id: shipmentId, refusal }, 'SYB data refused');
      if (read.refusals.length > 50)
        syb.log.warn({ shipment_id: shipmentId, more: read.refusals.length - 50 }, 'SYB data refused (more)');
      if (read.linesOverLimit > 0) truncated.push(shipmentId);
      for (let i = 0; i < read.lines.length; i += WRITE_BATCH) {
        counts.new_lines += await upsertLines(db, read.lines.slice(i, i + WRITE_BATCH));
        await yieldToEventLoop();
      }
      counts.lines += read.lines.length;
      await setState(db, { progress_lines: counts.lines });
    };
    try {
      for (let page = 1, pages = 1; page <= pages; page++) {
        if (page > SYB_LIMITS.pagesPerSync) {
          pageLimitHit = true;
          syb.log.warn({ pages, limit: SYB_LIMITS.pagesPerSync }, 'SYB list claims more pages than one sync reads');
          break;
        }
        const listed = await client.listPage(fromDay, toDay, page);
        pages = listed.pages;
        if (listed.refused > 0) syb.log.warn({ page, refused: listed.refused }, 'SYB list entries without a usable id');
        const fresh = [...new Set(listed.shipmentIds)].filter((id) => !seen.has(id));
        for (const shipmentId of fresh) await readOne(shipmentId);
        counts.pages = page;
        await setState(db, { progress_pages: counts.pages });
        heartbeat({ pages: counts.pages, lines: counts.lines });
        // A page with nothing new ends the walk, whatever `pages` claims (an empty or repeated page).
        if (fresh.length === 0) break;
      }
      for (const retry of parseRetries(state.retry_json)) if (!seen.has(retry.id)) await readOne(retry.id);
      heartbeat({ pages: counts.pages, lines: counts.lines });
      await matchLinesLeftOpen(db);
    } catch (err) {
      const message =
        err instanceof SybError ? `${err.code}: ${err.message}` : `SYNC_FAILED: ${(err as Error).message}`;
      await setState(db, {
        running: 0,
        finished_at: nowUtc(),
        last_error: message,
        retry_json: retryJson(failed, state.retry_json),
      });
      recordSybSync({ lines: counts.lines, ok: false });
      throw err;
    } finally {
      await client.close();
    }
    const problems = [
      ...(failed.length > 0
        ? [
            `the detail of ${failed.length} shipment(s) could not be read, the next sync tries again: ${failed.map((f) => `${f.id} (${f.error})`).join('; ')}`,
          ]
        : []),
      ...(truncated.length > 0
        ? [
            `${truncated.length} shipment(s) list more than ${SYB_LIMITS.linesPerShipment} lines, only the first are stored: ${truncated.join(', ')}`,
          ]
        : []),
      ...(pageLimitHit
        ? [`SYB lists more than ${SYB_LIMITS.pagesPerSync} pages; the rest is read by the next sync`]
        : []),
    ];
    await setState(db, {
      running: 0,
      finished_at: nowUtc(),
      ...(pageLimitHit ? {} : { last_synced_at: startedAt }),
      last_error: problems.length > 0 ? `${PARTIAL.code}: ${problems.join(' | ')}`.slice(0, 2000) : null,
      retry_json: JSON.stringify(failed.slice(0, SYB_LIMITS.retryShipments)),
    });
    recordSybSync({ lines: counts.lines, ok: problems.length === 0 });
    return counts;
  });
}

/** Failures of one shipment's detail; a wrong account, address or a lost session stop the sync. */
function perShipment(err: SybError): boolean {
  return err.code === 'SYB_BAD_ANSWER' || err.code === 'SYB_UNAVAILABLE';
}

function parseRetries(json: string): FailedShipment[] {
  const v: unknown = JSON.parse(json);
  if (!Array.isArray(v)) return [];
  return v
    .filter((r): r is FailedShipment => typeof (r as FailedShipment)?.id === 'string')
    .slice(0, SYB_LIMITS.retryShipments);
}

/** A failed sync keeps the earlier retries and adds this one's failures. */
function retryJson(failed: FailedShipment[], previous: string): string {
  const all = [...failed, ...parseRetries(previous).filter((p) => !failed.some((f) => f.id === p.id))];
  return JSON.stringify(all.slice(0, SYB_LIMITS.retryShipments));
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

type StateChange = Partial<{
  running: 0 | 1;
  started_at: string;
  finished_at: string | null;
  last_synced_at: string;
  last_error: string | null;
  progress_pages: number;
  progress_lines: number;
  retry_json: string;
}>;

async function setState(db: AdminDb, change: StateChange): Promise<void> {
  await db
    .updateTable('syb_sync_state')
    .set({ ...change, updated_at: nowUtc() })
    .where('id', '=', 1)
    .execute();
}
