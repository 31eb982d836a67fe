import type { PendingOrder } from '../../../domain/purchase/orders';
import { yuanToCent } from '../../../domain/money';
import { allById } from '../match';
import { descendants, type UiDump, type UiNode } from '../ui-xml';
import type { PurchaseProfile } from './profile';

export interface OrderContext {
  goodsId: string;
  /** the goods title read on the goods page before the submit: the list binds orders to goods by it */
  title: string | null;
  /** dimension names in panel order, to name the values of `黑色；M` */
  dimensionNames: readonly string[];
}

/**
 * The orders list as shown (read-only): one PendingOrder per fully dumped card. The list shows
 * no goods id, so an order is bound to the goods only when its title equals, exactly, the title
 * read on that goods page; its spec values are named by position only when their count fits.
 */
export function readOrderList(dump: UiDump, pp: PurchaseProfile, ctx: OrderContext): PendingOrder[] {
  const items = allById(dump.nodes, pp.id.orderItem);
  const out: PendingOrder[] = [];
  for (const item of items) {
    const field = (id: string): string | null => {
      const hits = descendants(item).filter((n: UiNode) => n.resourceId === id);
      return hits.length === 1 && hits[0] ? hits[0].text : null;
    };
    const sn = strip(field(pp.id.orderSn), pp.text.orderSnPrefix);
    if (!sn) continue; // clipped card: no number, nothing to match on
    const title = field(pp.id.orderTitle);
    const spec = field(pp.id.orderSpec);
    const values = spec === null ? [] : spec.split(pp.text.orderSpecSeparator);
    const options =
      values.length === ctx.dimensionNames.length
        ? Object.fromEntries(ctx.dimensionNames.map((n, i) => [n, values[i] as string]))
        : {};
    const countText = strip(field(pp.id.orderCount), pp.text.orderCountPrefix);
    const amountText = strip(field(pp.id.orderAmount), pp.text.orderAmountPrefix);
    const amountMatch = amountText === null ? null : /^[¥￥](\d+\.\d{2})$/.exec(amountText);
    const placedAtRaw = strip(field(pp.id.orderTime), pp.text.orderTimePrefix);
    out.push({
      orderNo: sn,
      goodsId: ctx.title !== null && title === ctx.title ? ctx.goodsId : null,
      title,
      options,
      optionsText: spec,
      quantity: countText !== null && /^[1-9]\d*$/.test(countText) ? Number(countText) : null,
      amountCent: amountMatch?.[1] ? yuanToCent(amountMatch[1]) : null,
      placedAtRaw,
      placedAt: placedAtRaw === null ? null : localToUtc(placedAtRaw, pp.orderTimeOffsetMinutes),
      status: field(pp.id.orderStatus) ?? '',
    });
  }
  return out;
}

function strip(text: string | null, prefix: string): string | null {
  return text !== null && text.startsWith(prefix) ? text.slice(prefix.length) : null;
}

/** `2026-08-07 20:15:03` in the app's clock → `2026-08-07T12:15:03Z`; anything else → null. */
function localToUtc(raw: string, offsetMinutes: number): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(raw);
  if (!m) return null;
  const ms =
    Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) -
    offsetMinutes * 60_000;
  if (!Number.isFinite(ms)) return null;
  return new Date(ms).toISOString().slice(0, 19) + 'Z';
}
