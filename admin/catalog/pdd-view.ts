import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import { CollectStaleAfterMs, staleBefore, type ProductState } from '../../domain/catalog';
import { optionWarnings, type PddProductView, type PddSkuRow } from '../../domain/catalog-views';
import { isInferredPrice, isMeasuredPrice, skusJsonSchema, type SkusJson } from '../../domain/collect';
import { optionKey } from '../../domain/option-key';
import type { PddProductsTable } from '../db/tables/catalog';
import type { Selectable } from 'kysely';

export type PddRow = Selectable<PddProductsTable>;

/** Stale `collecting` is worked out now, from updated_at, never stored (docs/architecture.md §4.1). */
function isStale(row: Pick<PddRow, 'collect_status' | 'updated_at'>, nowMs = Date.now()): boolean {
  return row.collect_status === 'collecting' && row.updated_at < staleBefore(nowMs);
}

/** One of the five operator states, for a product whose PDD goods is this row (or none). */
export function productState(
  row: Pick<PddRow, 'collect_status' | 'updated_at' | 'deleted_at'> | undefined,
  nowMs = Date.now(),
): ProductState {
  if (!row || row.deleted_at !== null) return 'unlinked';
  if (isStale(row, nowMs)) return 'failed';
  return row.collect_status;
}

function parseSkusJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function pddView(row: PddRow, nowMs = Date.now()): PddProductView {
  const stale = isStale(row, nowMs);
  return {
    goods_id: row.goods_id,
    url: row.url,
    canonical_url: canonicalPddGoodsUrl(row.goods_id),
    title: row.title,
    shop_name: row.shop_name,
    collect_status: row.collect_status,
    collect_stale: stale,
    state: productState(row, nowMs),
    collect_code: stale ? 'COLLECT_STALE' : row.collect_code,
    collect_msg: stale ? `采集超过 ${CollectStaleAfterMs / 60_000} 分钟没有结果，可以重新采集` : row.collect_msg,
    artifact_ref: row.artifact_ref,
    collect_device_id: row.collect_device_id,
    collect_workflow_id: row.collect_workflow_id,
    collected_at: row.collected_at,
    skus_json: parseSkusJson(row.skus_json),
    deleted: row.deleted_at !== null,
    deleted_at: row.deleted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The stored `skus_json` when it is one this admin understands, else null. */
export function collected(text: string | null): SkusJson | null {
  const parsed = skusJsonSchema.safeParse(parseSkusJson(text));
  return parsed.success ? parsed.data : null;
}

/** Every collected option combination as the operator sees it: price, stock and what to check. */
export function pddSkuRows(data: SkusJson | null): PddSkuRow[] {
  return (data?.skus ?? []).map((s) => ({
    options: s.options,
    option_key: optionKey(s.options),
    price_cent: s.price_cent,
    list_price_cent: s.list_price_cent ?? null,
    raw_price: s.raw_price,
    available: s.available,
    price_measured: isMeasuredPrice(s),
    price_inferred: isInferredPrice(s),
    warnings: optionWarnings(s),
  }));
}
