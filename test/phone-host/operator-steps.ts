import type { AdminDb } from '../../admin/db/database';
import type { TaskView } from '../../domain/purchase/views';
import { collectedInTestDb } from '../collected';
import type { OperatorClient } from '../harness';
import { BLACK_M } from '../purchase/setup';

/**
 * Asks `read` every 100 ms until `check` holds, at most `tries` times. A read that fails (a
 * keep-alive socket the admin closed between two polls) is asked again, not a failure; the
 * error names what never came and the last answer.
 */
export async function until<T>(
  read: () => Promise<T>,
  check: (v: T) => boolean,
  what: string,
  tries = 1_200,
): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    const got = await read().then(
      (v) => ({ v }),
      () => null,
    );
    if (got) last = got.v;
    if (got && check(got.v)) return got.v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never saw ${what}; last: ${JSON.stringify(last)}`);
}

/**
 * What the phone tests do as the operator, through the API: start a dry run of the simulator's
 * BLACK_M goods (collected first: a draft needs a collect) and wait for its task to reach a
 * state. `op` and `db` are read at each call, so a file may log in inside its beforeAll.
 */
export function operatorSteps(op: () => OperatorClient, db: () => AdminDb, tries?: number) {
  const task = async (id: string) => (await op().get(`/api/tasks/${id}`)).body as TaskView;
  const waitFor = (id: string, statuses: string[]) =>
    until(
      () => task(id),
      (t) => statuses.includes(t.status),
      `${id} in ${statuses.join('/')}`,
      tries,
    );
  async function dryRun(): Promise<string> {
    await collectedInTestDb(db(), BLACK_M.goodsId);
    const d = await op().post('/api/tasks', {
      type: 'purchase',
      pdd_goods_url: `https://mobile.yangkeduo.com/goods.html?goods_id=${BLACK_M.goodsId}`,
      pdd_options: BLACK_M.options,
      quantity: 1,
      max_total_price_cent: 2000,
      execution_mode: 'dry_run',
    });
    expect(d.status).toBe(201);
    const { task_id, version } = d.body as { task_id: string; version: number };
    expect((await op().post('/api/tasks/start', { tasks: [{ task_id, version }] })).status).toBe(200);
    return task_id;
  }
  return { task, waitFor, dryRun };
}
