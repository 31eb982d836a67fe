import { sql } from 'kysely';
import type { CollectedSku, SkusJson } from '../../domain/collect';
import { formatCent, type Cent } from '../../domain/money';
import type { DraftWarning } from '../../domain/purchase/views';
import { collected } from '../catalog/pdd-view';
import type { AdminDb } from '../db/database';
import { marginGuardForReads, marginShortfall, type MarginGuard } from './margin-guard';

/**
 * A 顺运宝 order line's draft after a re-collect: the price the last collect read against the
 * draft's cap and the minimum margin. Worked out when read, from the latest collect, so a price
 * that rose and fell again leaves nothing behind to clear.
 */

/** The combination a task's options (dimension name → value) name in a collect, whatever its stock or price. */
export function skuNamed(data: SkusJson, options: Readonly<Record<string, string>>): CollectedSku | null {
  if (data.dimensions.length === 0) return null;
  return data.skus.find((s) => data.dimensions.every((d) => s.options[d.key] === options[d.name])) ?? null;
}

interface CostedDraft {
  quantity: number;
  max_total_price_cent: Cent;
}

/** The most the draft may cost: its cap, or what the collect says it costs now when that is more. */
function costOf(task: CostedDraft, sku: CollectedSku | null): { cost: Cent; basis: string } {
  const collectedCost = sku?.price_cent != null ? sku.price_cent * task.quantity : null;
  return collectedCost !== null && collectedCost > task.max_total_price_cent
    ? { cost: collectedCost, basis: '采集单价 × 数量' }
    : { cost: task.max_total_price_cent, basis: '最高总价' };
}

/** MARGIN_TOO_LOW of a draft from an order line, or null (no guard, no sale, or enough margin). */
export function marginWarning(
  guard: MarginGuard | null,
  task: CostedDraft,
  sku: CollectedSku | null,
  line: { price_twd_cent: number | null; quantity: number } | null,
): DraftWarning | null {
  if (!guard || !line || line.price_twd_cent === null) return null;
  const { cost, basis } = costOf(task, sku);
  const short = marginShortfall(guard, { saleTwdCent: line.price_twd_cent, quantity: line.quantity }, cost, basis);
  return short ? { code: 'MARGIN_TOO_LOW', message: short.message } : null;
}

/** What 需处理 and 订单 say of one draft whose collected price rose above its cap. */
export interface PriceFlag {
  code: 'MARGIN_TOO_LOW' | 'CAP_BELOW_COLLECTED_PRICE';
  message: string;
  /** when the collect that read the price landed */
  collected_at: string | null;
}

export interface WatchedDraft extends CostedDraft {
  task_id: string;
  pdd_goods_id: string | null;
  /** as stored: JSON of dimension name → value */
  pdd_options: string | null;
  /** the order line's unit price and quantity (the sale) */
  line_price_twd_cent: number | null;
  line_quantity: number;
}

/**
 * The drafts whose collected unit price × quantity is now above their cap: the phone would stop at
 * its first gate, and the line may no longer earn the minimum. A draft within its cap is not
 * flagged — its cost is bounded by the cap it was drafted (and judged) with.
 */
export async function draftPriceFlags(db: AdminDb, drafts: readonly WatchedDraft[]): Promise<Map<string, PriceFlag>> {
  const flags = new Map<string, PriceFlag>();
  if (drafts.length === 0) return flags;
  const collects = await latestCollects(db, [
    ...new Set(drafts.map((d) => d.pdd_goods_id).filter((g): g is string => g !== null)),
  ]);
  const guard = await marginGuardForReads(db);
  for (const d of drafts) {
    const c = d.pdd_goods_id ? collects.get(d.pdd_goods_id) : undefined;
    if (!c?.data) continue;
    const sku = skuNamed(c.data, parseOptions(d.pdd_options));
    if (sku?.price_cent == null || sku.price_cent * d.quantity <= d.max_total_price_cent) continue;
    const need = sku.price_cent * d.quantity;
    const margin = marginWarning(guard, d, sku, { price_twd_cent: d.line_price_twd_cent, quantity: d.line_quantity });
    flags.set(d.task_id, {
      code: margin ? 'MARGIN_TOO_LOW' : 'CAP_BELOW_COLLECTED_PRICE',
      message: margin
        ? `采集价格上涨：${margin.message}`
        : `采集价格上涨：采集单价 ¥${formatCent(sku.price_cent)} × 数量 ${d.quantity} = ¥${formatCent(need)}，高于最高总价 ¥${formatCent(d.max_total_price_cent)}`,
      collected_at: c.collected_at,
    });
  }
  return flags;
}

function parseOptions(text: string | null): Record<string, string> {
  try {
    const v: unknown = text ? JSON.parse(text) : {};
    return v && typeof v === 'object' ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

interface Collect {
  stamp: string;
  collected_at: string | null;
  data: SkusJson | null;
}

/**
 * Parsed collects by goods, kept while the row is unchanged: 需处理 is read by every open page
 * every few seconds, and a goods' collect changes a few times a day. The stamp is read each
 * time, so a new collect is seen at the next read. One cache per database handle.
 */
const caches = new WeakMap<AdminDb, Map<string, Collect>>();
const PARSED_MAX = 2_000;

export async function latestCollects(db: AdminDb, goodsIds: readonly string[]): Promise<Map<string, Collect>> {
  const out = new Map<string, Collect>();
  let parsed = caches.get(db);
  if (!parsed) caches.set(db, (parsed = new Map()));
  for (let i = 0; i < goodsIds.length; i += 500) {
    const chunk = goodsIds.slice(i, i + 500);
    const rows = await db
      .selectFrom('pdd_products')
      .select([
        'goods_id',
        'collected_at',
        sql<string>`updated_at || '|' || coalesce(length(skus_json), -1)`.as('stamp'),
      ])
      .where('goods_id', 'in', chunk)
      .where('deleted_at', 'is', null)
      .execute();
    const stale = rows.filter((r) => parsed.get(r.goods_id)?.stamp !== `${r.collected_at}|${r.stamp}`);
    if (stale.length > 0) {
      const texts = await db
        .selectFrom('pdd_products')
        .select(['goods_id', 'skus_json'])
        .where(
          'goods_id',
          'in',
          stale.map((r) => r.goods_id),
        )
        .where('deleted_at', 'is', null)
        .execute();
      const textOf = new Map(texts.map((t) => [t.goods_id, t.skus_json]));
      if (parsed.size + stale.length > PARSED_MAX) parsed.clear();
      for (const r of stale)
        parsed.set(r.goods_id, {
          stamp: `${r.collected_at}|${r.stamp}`,
          collected_at: r.collected_at,
          data: collected(textOf.get(r.goods_id) ?? null),
        });
    }
    for (const r of rows) {
      const c = parsed.get(r.goods_id);
      if (c) out.set(r.goods_id, c);
    }
  }
  return out;
}
