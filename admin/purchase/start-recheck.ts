import type { AdminDb } from '../db/database';
import type { StartRequestItem } from './authorize';
import { latestCollects, skuNamed } from './price-watch';

export interface CollectRefusal {
  task_id: string;
  code: 'PRICE_UNKNOWN' | 'OPTION_OUT_OF_STOCK';
  message: string;
}

/**
 * 开始采购 against the latest collect: a draft is judged when it is saved, but a re-collect since
 * may have found its combination sold out, or without a price (then the cap cannot be checked
 * against anything). Either refuses the start of that draft — the phone would stop at the goods
 * page, or buy at a price nobody saw. A price carried over from another combination of the same
 * colour (推测价格) is still a price. A goods whose collect no longer names the combination (or
 * has none) is left to the phone's own checks, as before. Only drafts at the asked version are
 * judged: any other task is refused for its state by the authorization.
 */
export async function collectRefusals(trx: AdminDb, items: readonly StartRequestItem[]): Promise<CollectRefusal[]> {
  const asked = new Map(items.map((i) => [i.task_id, i.version]));
  const tasks: Array<{ task_id: string; version: number; pdd_goods_id: string | null; pdd_options: string | null }> =
    [];
  const ids = [...asked.keys()];
  for (let i = 0; i < ids.length; i += 500)
    tasks.push(
      ...(await trx
        .selectFrom('tasks')
        .select(['task_id', 'version', 'pdd_goods_id', 'pdd_options'])
        .where('task_id', 'in', ids.slice(i, i + 500))
        .where('task_type', '=', 'purchase')
        .where('status', '=', 'DRAFT')
        .execute()),
    );
  const drafts = tasks.filter((t) => asked.get(t.task_id) === t.version && t.pdd_goods_id !== null);
  const collects = await latestCollects(trx, [...new Set(drafts.map((t) => t.pdd_goods_id!))]);
  const refusals: CollectRefusal[] = [];
  for (const t of drafts) {
    const data = collects.get(t.pdd_goods_id!)?.data;
    const options = JSON.parse(t.pdd_options ?? '{}') as Record<string, string>;
    const sku = data ? skuNamed(data, options) : null;
    if (!data || !sku) continue;
    const text = data.dimensions.map((d) => options[d.name]).join(' / ');
    if (!sku.available)
      refusals.push({
        task_id: t.task_id,
        code: 'OPTION_OUT_OF_STOCK',
        message: `最新采集显示「${text}」缺货或不可选：请重新采集确认有货，或换一个规格后再开始`,
      });
    else if (sku.price_cent === null)
      refusals.push({
        task_id: t.task_id,
        code: 'PRICE_UNKNOWN',
        message: `最新采集没有读到「${text}」的价格，无法核对最高总价：请重新采集后再开始`,
      });
  }
  // in the order the tasks were asked
  const order = new Map(ids.map((id, i) => [id, i]));
  return refusals.sort((a, b) => order.get(a.task_id)! - order.get(b.task_id)!);
}
