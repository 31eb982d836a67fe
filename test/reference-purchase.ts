import type { OperatorClient } from './harness';

/**
 * A purchase of the phone simulator's reference goods (黑色 M), drafted and started through the
 * operator's API as an operator does it: for the tests and runs that drive a whole system
 * (test/e2e/, scripts/chaos/). The draft needs the goods collected first (test/collected.ts).
 * Returns the task's id; a refused draft or start throws with the admin's answer.
 */
export async function startReferencePurchase(
  op: OperatorClient,
  p: { mode: 'live' | 'dry_run'; quantity: number; maxTotalPriceCent: number },
): Promise<string> {
  const draft = await op.post('/api/tasks', {
    type: 'purchase',
    pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
    pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
    quantity: p.quantity,
    max_total_price_cent: p.maxTotalPriceCent,
    execution_mode: p.mode,
  });
  if (draft.status !== 201) throw new Error(`draft refused: ${draft.status} ${JSON.stringify(draft.body)}`);
  const { task_id, version } = draft.body as { task_id: string; version: number };
  const started = await op.post('/api/tasks/start', { tasks: [{ task_id, version }] });
  if (started.status !== 200) throw new Error(`start refused: ${started.status} ${JSON.stringify(started.body)}`);
  return task_id;
}
