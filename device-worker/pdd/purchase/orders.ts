import type { PendingOrder } from '../../../domain/purchase/orders';
import { yuanToCent } from '../../../domain/money';
import type { OrderField } from '../profile-schema';
import type { UiDump, UiNode } from '../ui-xml';
import type { PurchaseProfile } from './profile';

export interface OrderContext {
  goodsId: string;
  /** the goods title read on the goods page before the submit: the list binds orders to goods by it */
  title: string | null;
  /** dimension names in panel order, to name the values of `黑色；M` */
  dimensionNames: readonly string[];
}

/**
 * The orders list as shown (read-only): one PendingOrder per fully dumped card. A card is a
 * direct child of the scrollable list; its text rows are, top to bottom, the profile's
 * `order_fields`, and a card that does not show all of them (clipped at the list's edge) is read by
 * prefix only (number, time, amount, count). The list shows no goods id, so an order is bound to
 * the goods only when its title equals, exactly, the title read on that goods page; its spec values
 * are named by position only when their count fits.
 */
export function readOrderList(dump: UiDump, pp: PurchaseProfile, ctx: OrderContext): PendingOrder[] {
  const lists = dump.nodes.filter((n) => n.scrollable);
  if (lists.length !== 1 || !lists[0]) return [];
  const out: PendingOrder[] = [];
  for (const item of lists[0].children) {
    const rows = item.children.filter((n: UiNode) => n.children.length === 0 && n.text.length > 0);
    const full = rows.length === pp.orderFields.length;
    const field = (f: OrderField): string | null => {
      const i = pp.orderFields.indexOf(f);
      return full && i >= 0 ? (rows[i]?.text ?? null) : null;
    };
    const prefixed = (prefix: string, re?: RegExp): string | null => {
      const hits = rows.filter((n) => n.text.startsWith(prefix) && (!re || re.test(n.text.slice(prefix.length))));
      return hits.length === 1 && hits[0] ? hits[0].text : null;
    };
    const sn = strip(prefixed(pp.text.orderSnPrefix), pp.text.orderSnPrefix);
    if (!sn) continue; // clipped card: no number, nothing to match on
    const title = field('title');
    const spec = field('spec');
    const values = spec === null ? [] : spec.split(pp.text.orderSpecSeparator);
    const options =
      values.length === ctx.dimensionNames.length
        ? Object.fromEntries(ctx.dimensionNames.map((n, i) => [n, values[i] as string]))
        : {};
    const countText = strip(prefixed(pp.text.orderCountPrefix, /^[1-9]\d*$/), pp.text.orderCountPrefix);
    const amountText = strip(prefixed(pp.text.orderAmountPrefix), pp.text.orderAmountPrefix);
    const amountMatch = amountText === null ? null : /^[¥￥](\d+\.\d{2})$/.exec(amountText);
    const placedAtRaw = strip(prefixed(pp.text.orderTimePrefix), pp.text.orderTimePrefix);
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
      status: field('status') ?? '',
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
