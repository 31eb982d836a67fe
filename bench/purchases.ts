import Database from 'better-sqlite3';
import { openAdminDb } from '../admin/db/database';
import { isTerminal } from '../domain/purchase/state-machine';
import type { PurchaseStatus } from '../domain/purchase/status';
import { collectedInTestDb } from '../test/collected';
import type { OperatorClient } from '../test/harness';

/**
 * A batch of dry-run purchases as the benches drive it through the operator API: drafted on the
 * simulator's reference goods, started in the API's batches, waited for in the admin DB file.
 */
const BENCH_GOODS = {
  goodsId: '937122477375',
  options: { 颜色分类: '黑色', 尺码: 'M' },
  quantity: 1,
  maxTotalPriceCent: 100_000,
};

/**
 * Drafts `count` dry-run purchases and returns them ready for `POST /api/tasks/start`. A draft
 * needs a goods a phone collected (admin/purchase/options.ts): the goods' collect is stored
 * first as the phone would store it (test/collected.ts), beside the running admin.
 */
export async function draftDryRuns(
  stack: { op: OperatorClient; adminDbFile: string },
  count: number,
): Promise<Array<{ task_id: string; version: number }>> {
  const db = openAdminDb(stack.adminDbFile);
  try {
    await collectedInTestDb(db, BENCH_GOODS.goodsId);
  } finally {
    await db.destroy();
  }
  const out: Array<{ task_id: string; version: number }> = [];
  for (let i = 0; i < count; i++) {
    const res = await stack.op.post('/api/tasks', {
      type: 'purchase',
      pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${BENCH_GOODS.goodsId}`,
      pdd_options: BENCH_GOODS.options,
      quantity: BENCH_GOODS.quantity,
      max_total_price_cent: BENCH_GOODS.maxTotalPriceCent,
      execution_mode: 'dry_run',
    });
    if (res.status !== 201) throw new Error(`draft: ${res.status} ${JSON.stringify(res.body)}`);
    const { task_id, version } = res.body as { task_id: string; version: number };
    out.push({ task_id, version });
  }
  return out;
}

/** `POST /api/tasks/start` in batches of the API's limit (500). */
export async function startTasks(
  op: OperatorClient,
  tasks: Array<{ task_id: string; version: number }>,
): Promise<void> {
  for (let i = 0; i < tasks.length; i += 500) {
    const res = await op.post('/api/tasks/start', { tasks: tasks.slice(i, i + 500) });
    if (res.status !== 200) throw new Error(`start: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/**
 * Waits until every task is in a terminal state, reading the admin DB file (read-only, WAL) so
 * the wait puts no load on the API being measured. Returns the status of each task.
 */
export async function waitForTerminal(
  adminDbFile: string,
  taskIds: readonly string[],
  timeoutMs: number,
): Promise<Map<string, string>> {
  const db = new Database(adminDbFile, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    const deadline = Date.now() + timeoutMs;
    const query = db.prepare('SELECT task_id, status FROM tasks WHERE task_id = ?');
    for (;;) {
      const statuses = new Map(
        taskIds.map((id) => [id, (query.get(id) as { status: string } | undefined)?.status ?? 'MISSING']),
      );
      const open = [...statuses.values()].filter((s) => !isTerminal(s as PurchaseStatus) && s !== 'NEEDS_MANUAL');
      if (open.length === 0) return statuses;
      if (Date.now() > deadline)
        throw new Error(
          `${open.length} of ${taskIds.length} tasks still open after ${timeoutMs} ms: ${[...new Set(open)].join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    db.close();
  }
}
