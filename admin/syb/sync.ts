import { sql } from 'kysely';
import { specMatchKey, taipeiDay, type SybSyncCounts, type SybSyncStatus } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import { writeTransaction, type AdminDb } from '../db/database';
import type { SybService } from './account';
import { SybError, type SybLine } from './client';
import { ORDER_LINE_SKU_SET } from './orders';
import { recordSybSync } from '../metrics/metrics';

/** How far back the very first sync looks, in days. */
const FIRST_SYNC_DAYS = 30;

/**
 * One sync (docs/syb-protocol.md): from the Taipei day of `last_synced_at` to
 * today, every page, every shipment's detail, every line upserted. `last_synced_at` moves to
 * this sync's start only when all of it succeeded; otherwise `last_error` says why and the
 * next sync covers the same days again (the upsert makes that harmless).
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
      .select('last_synced_at')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const fromDay = taipeiDay(
      state.last_synced_at ? new Date(state.last_synced_at) : new Date(Date.now() - FIRST_SYNC_DAYS * 86400_000),
    );
    const toDay = taipeiDay(new Date());
    await setState(db, { running: 1, started_at: startedAt, finished_at: null, progress_pages: 0, progress_lines: 0 });

    const counts: SybSyncCounts = { pages: 0, lines: 0, new_lines: 0, from_day: fromDay, to_day: toDay };
    try {
      const client = syb.client(account);
      for (let page = 1, pages = 1; page <= pages; page++) {
        const listed = await client.listPage(fromDay, toDay, page);
        pages = listed.pages;
        for (const shipmentId of listed.shipmentIds) {
          const lines = await client.shipmentLines(shipmentId);
          counts.new_lines += await upsertLines(db, lines);
          counts.lines += lines.length;
          await setState(db, { progress_lines: counts.lines });
        }
        counts.pages = page;
        await setState(db, { progress_pages: counts.pages });
        heartbeat({ pages: counts.pages, lines: counts.lines });
      }
      await matchLinesLeftOpen(db);
    } catch (err) {
      const message =
        err instanceof SybError ? `${err.code}: ${err.message}` : `SYNC_FAILED: ${(err as Error).message}`;
      await setState(db, { running: 0, finished_at: nowUtc(), last_error: message });
      recordSybSync({ lines: counts.lines, ok: false });
      throw err;
    }
    await setState(db, { running: 0, finished_at: nowUtc(), last_synced_at: startedAt, last_error: null });
    recordSybSync({ lines: counts.lines, ok: true });
    return counts;
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

type StateChange = Partial<{
  running: 0 | 1;
  started_at: string;
  finished_at: string | null;
  last_synced_at: string;
  last_error: string | null;
  progress_pages: number;
  progress_lines: number;
}>;

async function setState(db: AdminDb, change: StateChange): Promise<void> {
  await db
    .updateTable('syb_sync_state')
    .set({ ...change, updated_at: nowUtc() })
    .where('id', '=', 1)
    .execute();
}

/**
 * Upserts the lines of one shipment in one transaction; returns how many were new. The update
 * never writes `shopee_sku_id` (the matching result is ours, SYB does not have it) and leaves a
 * row untouched when SYB sent the same data again. A new line gets a Shopee SKU only when its
 * spec matches exactly one local SKU of its goods.
 */
async function upsertLines(db: AdminDb, lines: SybLine[]): Promise<number> {
  return writeTransaction(db, async (trx) => {
    let created = 0;
    const now = nowUtc();
    for (const line of lines) {
      const exists = await trx
        .selectFrom('syb_orders')
        .select('syb_id')
        .where('syb_id', '=', line.syb_id)
        .executeTakeFirst();
      const data = JSON.stringify(line.syb_data);
      const changing = {
        order_no: line.order_no,
        title: line.title,
        product_spec: line.product_spec,
        shopee_goods_id: line.shopee_goods_id,
        quantity: line.quantity,
        price_twd_cent: line.price_twd_cent,
        image_url: line.image_url,
        syb_data: data,
        created_at: line.created_at,
        updated_at: now,
      };
      if (exists) {
        await trx
          .updateTable('syb_orders')
          .set(changing)
          .where('syb_id', '=', line.syb_id)
          .where(sql<boolean>`syb_data is not ${data}`)
          .execute();
        continue;
      }
      created += 1;
      await trx
        .insertInto('syb_orders')
        .values({ syb_id: line.syb_id, ...changing, shopee_sku_id: await autoMatch(trx, line), first_synced_at: now })
        .execute();
    }
    return created;
  });
}

/**
 * Lines that came in before their product's SKUs were imported get the same automatic match a
 * new line gets, on every later sync — except lines whose SKU an operator has set or cleared:
 * that choice (kept in the audit log, the one record of it) is never overwritten. Inside one
 * write transaction, so an operator's edit lands either before (and is respected) or after.
 */
async function matchLinesLeftOpen(db: AdminDb): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const open = await trx
      .selectFrom('syb_orders as o')
      .select(['o.syb_id', 'o.shopee_goods_id', 'o.product_spec'])
      .where('o.shopee_sku_id', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('audit_log as a')
              .select('a.id')
              .where('a.action', '=', ORDER_LINE_SKU_SET)
              .where('a.target_kind', '=', 'syb_order')
              .whereRef('a.target_id', '=', 'o.syb_id'),
          ),
        ),
      )
      .execute();
    for (const line of open) {
      const skuId = await autoMatch(trx, line);
      if (skuId === null) continue;
      await trx
        .updateTable('syb_orders')
        .set({ shopee_sku_id: skuId, updated_at: nowUtc() })
        .where('syb_id', '=', line.syb_id)
        .where('shopee_sku_id', 'is', null)
        .execute();
    }
  });
}

async function autoMatch(
  trx: AdminDb,
  line: Pick<SybLine, 'shopee_goods_id' | 'product_spec'>,
): Promise<string | null> {
  const key = specMatchKey(line.product_spec);
  if (key === null) return null;
  const skus = await trx
    .selectFrom('shopee_skus')
    .select(['sku_id', 'spec_raw'])
    .where('goods_id', '=', line.shopee_goods_id)
    .execute();
  const same = skus.filter((s) => specMatchKey(s.spec_raw) === key);
  return same.length === 1 && same[0] ? same[0].sku_id : null;
}
