import { isInferredPrice } from '../../domain/collect';
import { formatCent } from '../../domain/money';
import type { DraftWarning } from '../../domain/purchase/views';
import type { AdminDb } from '../db/database';
import { marginGuardForReads } from './margin-guard';
import { collectedSkuOf } from './options';
import { marginWarning } from './price-watch';

/** A warning is no error code (domain/api-errors.ts): the draft was saved. */
const warn = (code: DraftWarning['code'], message: string): DraftWarning => ({ code, message });

interface WarnedTask {
  pdd_goods_id: string | null;
  pdd_options: Readonly<Record<string, string>>;
  quantity: number;
  max_total_price_cent: number;
  syb_id: string | null;
}

/**
 * 草稿提示: what a saved draft may get wrong without being refused — a cap the phone's first
 * gate will stop at with today's collected price, or a quantity that is not the 顺运宝 order
 * line's, or a collected price that was inferred from another combination of the same colour
 * (推测价格: a cap pre-filled from it is a guess), or an order line that earns less than 设置 →
 * 最低毛利率 at the cap (or at the collected price, when that rose above it). Worked out when the
 * task is read, so it follows a new collect, a re-synced line or a changed setting.
 */
export async function draftWarnings(db: AdminDb, task: WarnedTask): Promise<DraftWarning[]> {
  const warnings: DraftWarning[] = [];
  const sku = task.pdd_goods_id ? await collectedSkuOf(db, task.pdd_goods_id, task.pdd_options) : null;
  if (sku && sku.price_cent !== null && task.max_total_price_cent < sku.price_cent * task.quantity) {
    const need = sku.price_cent * task.quantity;
    warnings.push(
      warn(
        'CAP_BELOW_COLLECTED_PRICE',
        `最高总价 ¥${formatCent(task.max_total_price_cent)} 低于采集单价 ¥${formatCent(sku.price_cent)} × 数量 ${task.quantity} = ¥${formatCent(need)}：按这个价格手机会在下单前停止，请提高最高总价或重新采集`,
      ),
    );
  }
  if (sku && isInferredPrice(sku))
    warnings.push(
      warn(
        'CAP_FROM_INFERRED_PRICE',
        `采集单价 ¥${formatCent(sku.price_cent ?? 0)} 是推测价格（按颜色采样，这个规格没有单独读到价格）：最高总价如按它填写，请先在拼多多核对这个规格的价格`,
      ),
    );
  if (task.syb_id !== null) {
    const line = await db
      .selectFrom('syb_orders')
      .select(['quantity', 'price_twd_cent'])
      .where('syb_id', '=', task.syb_id)
      .executeTakeFirst();
    const margin = marginWarning(await marginGuardForReads(db), task, sku, line ?? null);
    if (margin) warnings.push(margin);
    if (line && line.quantity !== task.quantity)
      warnings.push(
        warn(
          'QUANTITY_DIFFERS_FROM_ORDER',
          `数量 ${task.quantity} 与顺运宝订单明细的数量 ${line.quantity} 不同，请确认`,
        ),
      );
  }
  return warnings;
}
