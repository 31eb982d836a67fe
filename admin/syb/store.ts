import { specMatchKey } from '../../domain/syb';
import { nowUtc } from '../../domain/time';
import { writeTransaction, type AdminDb } from '../db/database';
import type { SybLine } from './client';
import { ORDER_LINE_SKU_SET } from './line-sku';

/** Writing synced lines into `syb_orders` and matching them to local Shopee SKUs (admin/syb/sync.ts). */

/**
 * Upserts a batch of one shipment's lines in one transaction; returns how many were new. The update
 * never writes `shopee_sku_id` (the matching result is ours, SYB does not have it) and leaves a
 * row untouched when SYB sent the same data again. A new line gets a Shopee SKU only when its
 * spec matches exactly one local SKU of its goods.
 */
export async function upsertLines(db: AdminDb, lines: SybLine[]): Promise<number> {
  return writeTransaction(db, async (trx) => {
    let created = 0;
    const now = nowUtc();
    const stored = new Map(
      (
        await trx
          .selectFrom('syb_orders')
          .select(['syb_id', 'syb_data', 'data_problem'])
          .where(
            'syb_id',
            'in',
            lines.map((l) => l.syb_id),
          )
          .execute()
      ).map((r) => [r.syb_id, r]),
    );
    const skusOf = new Map<string, Array<{ sku_id: string; spec_raw: string | null }>>();
    for (const line of lines) {
      const data = JSON.stringify(line.syb_data);
      const before = stored.get(line.syb_id);
      // SYB sent the same again: the row stays untouched (and keeps its updated_at).
      if (before && before.syb_data === data && before.data_problem === line.data_problem) continue;
      const changing = {
        syb_order_no: line.syb_order_no,
        title: line.title,
        product_spec: line.product_spec,
        shopee_goods_id: line.shopee_goods_id,
        quantity: line.quantity,
        price_twd_cent: line.price_twd_cent,
        image_url: line.image_url,
        syb_data: data,
        data_problem: line.data_problem,
        created_at: line.created_at,
        updated_at: now,
      };
      if (before) {
        await trx.updateTable('syb_orders').set(changing).where('syb_id', '=', line.syb_id).execute();
        continue;
      }
      created += 1;
      let skus = skusOf.get(line.shopee_goods_id);
      if (!skus && line.data_problem === null) {
        skus = await trx
          .selectFrom('shopee_skus')
          .select(['sku_id', 'spec_raw'])
          .where('goods_id', '=', line.shopee_goods_id)
          .execute();
        skusOf.set(line.shopee_goods_id, skus);
      }
      await trx
        .insertInto('syb_orders')
        .values({
          syb_id: line.syb_id,
          ...changing,
          shopee_sku_id: line.data_problem === null && skus ? uniqueSameSpec(skus, line.product_spec) : null,
          first_synced_at: now,
        })
        .execute();
    }
    return created;
  });
}

/** The one local SKU whose spec matches, or null (none, or more than one). */
function uniqueSameSpec(skus: Array<{ sku_id: string; spec_raw: string | null }>, spec: string | null): string | null {
  const key = specMatchKey(spec);
  if (key === null) return null;
  const same = skus.filter((s) => specMatchKey(s.spec_raw) === key);
  return same.length === 1 && same[0] ? same[0].sku_id : null;
}

/**
 * Lines that came in before their product's SKUs were imported get the same automatic match a
 * new line gets, on every later sync — except lines whose SKU an operator has set or cleared:
 * that choice (kept in the audit log, the one record of it) is never overwritten. Inside one
 * write transaction, so an operator's edit lands either before (and is respected) or after.
 */
export async function matchLinesLeftOpen(db: AdminDb): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const open = await trx
      .selectFrom('syb_orders as o')
      .select(['o.syb_id', 'o.shopee_goods_id', 'o.product_spec'])
      .where('o.shopee_sku_id', 'is', null)
      .where('o.data_problem', 'is', null)
      // only lines that have something to match against: a goods without local SKUs costs nothing
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('shopee_skus as k').select('k.sku_id').whereRef('k.goods_id', '=', 'o.shopee_goods_id')),
      )
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
  if (specMatchKey(line.product_spec) === null) return null;
  const skus = await trx
    .selectFrom('shopee_skus')
    .select(['sku_id', 'spec_raw'])
    .where('goods_id', '=', line.shopee_goods_id)
    .execute();
  return uniqueSameSpec(skus, line.product_spec);
}
